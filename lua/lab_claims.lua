-- lab_claims.lua (warplab.lab_claims): what a lab's text says about the
-- hardware, checked. Each step's experiment runs, then each of its claims
-- ({text=, holds=function(ctx), gpu=, counters=, skip=function(ctx)}) is
-- judged on the student's results: on a GPU for what only measured results
-- can show, on the model for the rest. A claim that does not hold says what
-- it read of the result (ctx.result.load.sectors_per_request = 5, ...).
local core = require "warplab.core"
local text = require "warplab.text"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"
local lab_catalogue = require "warplab.lab_catalogue"
local labs = require "warplab.labs"

local fmt = text.fmt
local clean, text_of, format_value = lab_text.clean, lab_text.text_of, lab_text.format_value
local runner = labs.runner
local C = core.globals   -- device(), the API's in C

local messages = {
  claim_needs_gpu = { en = "measured on a GPU only", zh = "只能在 GPU 上测量" },
  claim_needs_counters = { en = "needs hardware counters: %s", zh = "需要硬件计数器：%s" },
  it_read = { en = "it read %s", zh = "它读到 %s" },
}
local say = text.messages("lab_claims", messages)

-- What a lab function read of its ctx, for a checker's finding that says why
-- it was false: the function run again on a ctx that notes each plain value
-- read ("ctx.result.load.sectors_per_request = 5, ..."); nil when it read
-- none or failed. Only the checker calls it, after the real run.
local MAX_READS_SHOWN = 4
local function reads_of(where_text, fn, ctx)
  local reads, seen = {}, {}
  local function note(path, value)
    if seen[path] or #reads >= MAX_READS_SHOWN then return end
    seen[path] = true
    reads[#reads + 1] = fmt("%s = %s", path, type(value) == "string" and text.quote(clean(value)) or format_value(value))
  end
  local function watched(value, path)
    if type(value) ~= "table" then return value end
    local function item_of(key, item)
      local item_path = path .. (type(key) == "string" and "." .. key or "[" .. tostring(key) .. "]")
      if type(item) ~= "table" and type(item) ~= "function" then note(item_path, item) end
      return watched(item, item_path)
    end
    return setmetatable({}, {
      __index = function(_, key) return item_of(key, value[key]) end,
      __len = function() return #value end,
      __pairs = function()
        return function(_, key)
          local next_key, item = next(value, key)
          if next_key ~= nil then return next_key, item_of(next_key, item) end
        end, nil, nil
      end,
    })
  end
  local ok = pcall(lab_sandbox.judging, where_text, fn, watched(ctx, "ctx"))
  if not ok or #reads == 0 then return nil end
  return say("it_read", table.concat(reads, ", "))
end

-- Why a claim does not apply to the device in use (its skip(ctx) says, for a
-- claim only some GPUs bear out), or nil.
local function skip_reason(state, claim, measured)
  if (claim.gpu or claim.counters) and not measured then return say("claim_needs_gpu") end
  local r = core.last_result()
  if claim.counters and r and not r.counters then   -- a build without them, or another profiler attached
    return say("claim_needs_counters", clean(tostring(r.counters_unavailable)))
  end
  if not claim.skip then return nil end
  local ok, reason = pcall(lab_sandbox.judging, runner.where(state), claim.skip, runner.context(state))
  return ok and reason and text_of(reason) or nil
end

-- Runs every step's experiment and evaluates its `claims`: a list of
-- {text = ..., holds = function(ctx) return true_or_false end, gpu = true (only
-- measured results can show it), skip = function(ctx) return why_not_here end}.
-- Returns {lab=, step=, text=, holds=, skipped=, reason=, read=} per claim
-- (read: what a claim that does not hold read of the result), and lists of
-- failed_steps and kernel_failures (a skeleton not declared), {step=, error=}.
local function check_claims(name)
  local definition = lab_catalogue.find_lab(name)
  core.sandbox_new_lab()
  local state = { definition = definition, index = 1, shown = {} }
  local measured = C.device().backend == "gpu"
  local outcomes = {}
  for i, step in ipairs(definition.steps) do
    state.index = i
    local not_declared = runner.declare_step_kernel(state, "skeleton")
    if not_declared then
      outcomes.kernel_failures = outcomes.kernel_failures or {}
      outcomes.kernel_failures[#outcomes.kernel_failures + 1] = { step = i, error = not_declared }
    end
    local ran, why = true, nil
    if step.run then ran, why = runner.run_experiment(state, step.run) end
    if not ran then
      outcomes.failed_steps = outcomes.failed_steps or {}
      outcomes.failed_steps[#outcomes.failed_steps + 1] = { step = i, error = why }
    end
    for _, claim in ipairs(step.claims or {}) do
      local outcome = { lab = definition.name, step = i, text = text_of(claim.text) }
      outcome.reason = skip_reason(state, claim, measured)
      if outcome.reason then
        outcome.skipped = true
      else
        core.take_missing_counter()
        local ok, holds = pcall(lab_sandbox.judging, runner.where(state), claim.holds, runner.context(state))
        local missing = not ok and core.take_missing_counter()
        if missing then   -- a counter this GPU does not have: the claim cannot be judged here
          outcome.skipped, outcome.reason = true, missing
        else
          outcome.holds = ok and holds == true
          if not ok then outcome.error = tostring(holds) end
          if ok and not outcome.holds then outcome.read = reads_of(runner.where(state), claim.holds, runner.context(state)) end
        end
      end
      outcomes[#outcomes + 1] = outcome
    end
  end
  return outcomes
end

return { check_claims = check_claims, reads_of = reads_of }
