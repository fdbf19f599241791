package main

import (
	"os"
	"fmt"
)

func main() {

}
