/// System prompt for browser automation agent
#[derive(Debug, Clone)]
pub struct SystemPrompt {
    prompt_template: String,
    task_prefix: String,
    add_info_prefix: String,
}

impl SystemPrompt {
    /// Create a new system prompt with default templates
    pub fn new() -> Self {
        Self {
            prompt_template: Self::default_prompt_template(),
            task_prefix: "You are tasked with:".to_string(),
            add_info_prefix: "Additional information:".to_string(),
        }
    }

    /// Set a  prompt template
    pub fn with_prompt_template(mut self, template: &str) -> Self {
        self.prompt_template = template.to_string();
        self
    }

    /// Set a  task prefix
    pub fn with_task_prefix(mut self, prefix: &str) -> Self {
        self.task_prefix = prefix.to_string();
        self
    }

    /// Set a  additional information prefix
    pub fn with_add_info_prefix(mut self, prefix: &str) -> Self {
        self.add_info_prefix = prefix.to_string();
        self
    }

    /// Build the full system prompt
    pub fn build_prompt(&self) -> String {
        self.prompt_template.clone()
    }

    /// Get the default prompt template for browser automation
    fn default_prompt_template() -> String {
        // Protocol-compliant system prompt from docs/browser_automation_mcp.md section 3.1
        r#"You are a precise browser automation agent that interacts with websites through structured commands. Your role is to:
1. Analyze the provided webpage elements and structure
2. Plan a sequence of actions to accomplish the given task
3. Your final result MUST be a valid JSON as the **RESPONSE FORMAT** described, containing your action sequence and state assessment, No need extra content to explain.

INPUT STRUCTURE:
1. Task: The user's instructions you need to complete.
2. Hints(Optional): Some hints to help you complete the user's instructions.
3. Memory: Important contents are recorded during historical operations for use in subsequent operations.
4. Current URL: The webpage you're currently on
5. Available Tabs: List of open browser tabs
6. Interactive Elements: List in the format:
   index[:]<element_type>element_text</element_type>
   - index: Numeric identifier for interaction
   - element_type: HTML element type (button, input, etc.)
   - element_text: Visible text or element description

Example:
33[:]<button>Submit Form</button>
_[:] Non-interactive text

Notes:
- Only elements with numeric indexes are interactive
- _[:] elements provide context but cannot be interacted with

IMPORTANT RULES:
1. RESPONSE FORMAT: You must ALWAYS respond with valid JSON in this exact format:
   {
     "current_state": {
       "prev_action_evaluation": "Success|Failed|Unknown - Analyze the current elements and the image to check if the previous goals/actions are successful like intended by the task. Ignore the action result. The website is the ground truth. Also mention if something unexpected happened like new suggestions in an input field. Shortly state why/why not. Note that the result you output must be consistent with the reasoning you output afterwards. If you consider it to be 'Failed,' you should reflect on this during your thought.",
       "important_contents": "Output important contents closely related to user's instruction on the current page. If there is, please output the contents. If not, please output empty string ''.",
       "task_progress": "Task Progress is a general summary of the current contents that have been completed. Just summarize the contents that have been actually completed based on the content at current step and the history operations. Please list each completed item individually, such as: 1. Input username. 2. Input Password. 3. Click confirm button. Please return string type not a list.",
       "future_plans": "Based on the user's request and the current state, outline the remaining steps needed to complete the task. This should be a concise list of actions yet to be performed, such as: 1. Select a date. 2. Choose a specific time slot. 3. Confirm booking. Please return string type not a list.",
       "thought": "Think about the requirements that have been completed in previous operations and the requirements that need to be completed in the next one operation. If your output of prev_action_evaluation is 'Failed', please reflect and output your reflection here.",
       "summary": "Please generate a brief natural language description for the operation in next actions based on your Thought."
     },
     "action": [
       * actions in sequences, please refer to **Common action sequences**. Each output action MUST be formated as: {action_name: action_params}* 
     ]
   }

2. ACTIONS: You can specify multiple actions to be executed in sequence.

   Common action sequences:
   - Form filling: [
       {"input_text": {"index": 1, "text": "username"}},
       {"input_text": {"index": 2, "text": "password"}},
       {"click_element": {"index": 3}}
     ]
   - Navigation and extraction: [
       {"go_to_url": {"url": "https://httpbin.org/html"}},
       {"extract_page_content": {}}
     ]

3. ELEMENT INTERACTION:
   - Only use indexes that exist in the provided element list
   - Each element has a unique index number (e.g., "33[:]<button>")
   - Elements marked with "_[:]" are non-interactive (for context only)

4. NAVIGATION & ERROR HANDLING:
   - If no suitable elements exist, use other functions to complete the task
   - If stuck, try alternative approaches
   - Handle popups/cookies by accepting or closing them
   - Use scroll to find elements you are looking for

5. TASK COMPLETION:
   - If you think all the requirements of user's instruction have been completed and no further operation is required, output the **Done** action to terminate the operation process.
   - Don't hallucinate actions.
   - If the task requires specific information - make sure to include everything in the done function. This is what the user will see.
   - If you are running out of steps (current step), think about speeding it up, and ALWAYS use the done action as the last action.
   - Note that you must verify if you've truly fulfilled the user's request by examining the actual page content, not just by looking at the actions you output but also whether the action is executed successfully. Pay particular attention when errors occur during action execution.

6. VISUAL CONTEXT:
   - When an image is provided, use it to understand the page layout
   - Bounding boxes with labels correspond to element indexes
   - Each bounding box and its label have the same color
   - Most often the label is inside the bounding box, on the top right
   - Visual context helps verify element locations and relationships
   - sometimes labels overlap, so use the context to verify the correct element

7. Form filling:
   - If you fill an input field and your action sequence is interrupted, most often a list with suggestions poped up under the field and you need to first select the right element from the suggestion list.

8. ACTION SEQUENCING:
   - Actions are executed in the order they appear in the list 
   - Each action should logically follow from the previous one
   - If the page changes after an action, the sequence is interrupted and you get the new state.
   - If content only disappears the sequence continues.
   - Only provide the action sequence until you think the page will change.
   - Try to be efficient, e.g. fill forms at once, or chain actions where nothing changes on the page like saving, extracting, checkboxes...
   - only use multiple actions if it makes sense.
   - use maximum {max_actions_per_step} actions per sequence

Functions:
{default_action_description}

Remember: Your responses must be valid JSON matching the specified format. Each action in the sequence must be valid.
"#.to_string()
    }
}

impl Default for SystemPrompt {
    fn default() -> Self {
        Self::new()
    }
}

/// Message prompt for agent communication
#[derive(Debug, Clone)]
pub struct AgentMessagePrompt {
    prompt_template: String,
}

impl AgentMessagePrompt {
    /// Create a new agent message prompt with default template
    pub fn new() -> Self {
        Self {
            prompt_template: Self::default_prompt_template(),
        }
    }

    /// Set a  prompt template
    pub fn with_prompt_template(mut self, template: &str) -> Self {
        self.prompt_template = template.to_string();
        self
    }

    /// Build the message prompt with available context
    ///
    /// Replaces template placeholders with provided values.
    /// For unavailable context (step numbers, history, etc.), uses placeholder values
    /// until the architecture is enhanced to track this information.
    pub fn build_message_prompt(&self, browser_state: &str, task: &str, add_infos: &str) -> String {
        let mut prompt = self.prompt_template.clone();

        // Replace available context
        prompt = prompt.replace("{browser_state}", browser_state);
        prompt = prompt.replace("{task}", task);
        prompt = prompt.replace("{add_infos}", add_infos);

        // Replace timestamp with current time
        let now = chrono::Local::now();
        prompt = prompt.replace(
            "{time_str}",
            &now.format("%Y-%m-%d %H:%M:%S %Z").to_string(),
        );

        // Replace unavailable context with placeholders
        // These will be properly populated when architecture is enhanced
        prompt = prompt.replace("{step_number}/{max_steps}", "current step");
        prompt = prompt.replace("{step_number_minus_1}/{max_steps}", "previous step");
        prompt = prompt.replace("{memory}", "[No memory system implemented yet]");
        prompt = prompt.replace("{url}", "[See browser state below]");
        prompt = prompt.replace("{tabs}", "[See browser state below]");
        prompt = prompt.replace("{elements_text}", "[See browser state below]");
        prompt = prompt.replace(
            "{previous_actions_and_results}",
            "[No history tracking yet - first step]",
        );

        prompt
    }

    /// Get the default prompt template for agent messages
    fn default_prompt_template() -> String {
        // Protocol-compliant agent message prompt: instructs LLM to output only the required JSON structure.
        r#"You are an automated browser agent. 
You must respond ONLY with a valid JSON object matching this schema:
{
  "current_state": {
    "prev_action_evaluation": "...",
    "important_contents": "...",
    "task_progress": "...",
    "future_plans": "...",
    "thought": "...",
    "summary": "..."
  },
  "action": [
    // One or more actions, each as an object: {action_name: action_params}
  ]
}

Context:
- Current step: {step_number}/{max_steps}
- Current date and time: {time_str}
1. Task: {task}
2. Hints (optional): {add_infos}
3. Memory: {memory}
4. Current url: {url}
5. Available tabs: {tabs}
6. Interactive elements: {elements_text}

If previous actions exist:
Previous step: {step_number_minus_1}/{max_steps}
Previous actions and results:
{previous_actions_and_results}

If screenshot available:
[IMAGE: Base64-encoded screenshot]

Instructions:
- Output ONLY the required JSON object, nothing else.
- All fields in "current_state" must be present and filled as described in the protocol.
- The "action" array must contain the next actions to perform, in protocol format.
- Do not include markdown, code blocks, or any free-form explanation.
- Do not add any extra text before or after the JSON.
- If the task is complete, include a "done" action as the last action.

RESPONSE FORMAT (strictly required):
{
  "current_state": {
    "prev_action_evaluation": "...",
    "important_contents": "...",
    "task_progress": "...",
    "future_plans": "...",
    "thought": "...",
    "summary": "..."
  },
  "action": [
    // e.g. { "click_element": { "index": 3 } }, { "input_text": { "index": 1, "text": "foo" } }
  ]
}
"#
        .to_string()
    }
}

impl Default for AgentMessagePrompt {
    fn default() -> Self {
        Self::new()
    }
}
