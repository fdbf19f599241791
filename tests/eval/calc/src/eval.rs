//! A small recursive-descent evaluator for + - * / ^ and parentheses.

use std::fmt;

#[derive(Debug, PartialEq)]
pub enum EvalError {
    Syntax { pos: usize, msg: &'static str },
    DivisionByZero,
    Overflow,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Syntax { pos, msg } => write!(f, "syntax error at {pos}: {msg}"),
            EvalError::DivisionByZero => write!(f, "division by zero"),
            EvalError::Overflow => write!(f, "result is not a finite number"),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }

    fn expr(&mut self) -> Result<f64, EvalError> {
        let mut v = self.term()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let r = self.term()?;
            v = if op == b'+' { v + r } else { v - r };
        }
        Ok(v)
    }

    fn term(&mut self) -> Result<f64, EvalError> {
        let mut v = self.power()?;
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.pos += 1;
            let r = self.power()?;
            if op == b'/' && r == 0.0 {
                return Err(EvalError::DivisionByZero);
            }
            v = if op == b'*' { v * r } else { v / r };
        }
        Ok(v)
    }

    fn power(&mut self) -> Result<f64, EvalError> {
        let base = self.atom()?;
        if self.peek() == Some(b'^') {
            self.pos += 1;
            let exp = self.power()?;
            return Ok(base.powf(exp));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<f64, EvalError> {
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                let v = self.expr()?;
                if self.peek() != Some(b')') {
                    return Err(EvalError::Syntax {
                        pos: self.pos,
                        msg: "expected ')'",
                    });
                }
                self.pos += 1;
                Ok(v)
            }
            Some(b'-') => {
                self.pos += 1;
                Ok(-self.atom()?)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.pos;
                while self.pos < self.s.len()
                    && (self.s[self.pos].is_ascii_digit() || self.s[self.pos] == b'.')
                {
                    self.pos += 1;
                }
                std::str::from_utf8(&self.s[start..self.pos])
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .ok_or(EvalError::Syntax {
                        pos: start,
                        msg: "malformed number",
                    })
            }
            _ => Err(EvalError::Syntax {
                pos: self.pos,
                msg: "expected a number or '('",
            }),
        }
    }
}

pub fn evaluate(input: &str) -> Result<f64, EvalError> {
    let mut p = Parser {
        s: input.as_bytes(),
        pos: 0,
    };
    let v = p.expr()?;
    if p.peek().is_some() {
        return Err(EvalError::Syntax {
            pos: p.pos,
            msg: "unexpected trailing input",
        });
    }
    if !v.is_finite() {
        return Err(EvalError::Overflow);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence() {
        assert_eq!(evaluate("1 + 2 * 3"), Ok(7.0));
        assert_eq!(evaluate("2 ^ 3 ^ 2"), Ok(512.0));
        assert_eq!(evaluate("1 / 0"), Err(EvalError::DivisionByZero));
    }
}
