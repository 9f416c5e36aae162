-- progress.lua: what a student did in each lab, kept in progress.json
-- ($XDG_DATA_HOME/warplab, or students/ID/ there for a student with an ID). Every change is saved at once: under a lock,
-- applied to what the file holds now (so two shells never lose each other's
-- work), and written atomically by core.write_file. A save that fails keeps
-- the old file, says so once, and keeps the change for the next save; a
-- damaged file is kept aside and a fresh one started; values of the wrong
-- type are reset lab by lab, the rest kept. What is saved is plain, small
-- data (LIMITS, docs/results.md): a value past them is never saved (one
-- line says why), and one already in the file is dropped when it is read.
local core = require "warplab.core"
local u = require "warplab.text"
local files = require "warplab.files"
local json = require "warplab.json"

-- A copy of a record or of the data, so callers never hold what is saved.
local function deep_copy(value) return type(value) == "table" and files.copy_table(value) or value end

local progress = {}

local NO_SUCH_FILE = 2   -- ENOENT, core.read_file's third value for a file that is not there

local messages = {
  not_saved = { en = "warning: your progress was not saved (%s); what was saved before is kept",
                zh = "警告：你的进度没有保存（%s）；之前保存的进度仍然保留" },
  saved_again = { en = "note: your progress is saved again (%s)", zh = "提示：你的进度又能保存了（%s）" },
  no_home = { en = "warning: your progress is not saved: there is no home folder (set HOME or XDG_DATA_HOME)",
              zh = "警告：你的进度不会保存：没有主目录（请设置 HOME 或 XDG_DATA_HOME）" },
  corrupt = { en = "warning: %s was damaged (%s); it is kept as %s and your progress starts afresh",
              zh = "警告：%s 已损坏（%s）；它被保留为 %s，你的进度重新开始" },
  corrupt_stays = { en = "warning: %s is damaged (%s) and cannot be moved aside (%s); your progress starts afresh",
                    zh = "警告：%s 已损坏（%s），且无法移到一旁（%s）；你的进度重新开始" },
  repaired = { en = "note: your progress in lab '%s' had values warplab cannot use; they were reset, the rest is kept",
               zh = "提示：你在实验“%s”中的进度有无法使用的值；这些值已重置，其余保留" },
  not_progress = { en = "not a progress file: no table of labs", zh = "不是进度文件：没有实验表" },
  step_expected = { en = "bad argument #%d to 'update' (a step number expected, got %s)",
                    zh = "bad argument #%d to 'update' (需要步号，得到 %s)" },
  answer_expected = { en = "bad argument #4 to 'update' (the answer as a string expected, got %s)",
                      zh = "bad argument #4 to 'update' (需要字符串形式的答案，得到 %s)" },
  gap_expected = { en = "bad argument #4 to 'update' (the prediction's gap as a number expected, got %s)",
                   zh = "bad argument #4 to 'update' (需要数字形式的预测差距，得到 %s)" },
  change_expected = { en = "bad argument #2 to 'update' (%s expected, got %s)", zh = "bad argument #2 to 'update' (需要 %s，得到 %s)" },
  changes_or = { en = "'step', 'attempt', 'predict', 'reveal', 'finished' or 'reset'",
                 zh = "'step'、'attempt'、'predict'、'reveal'、'finished' 或 'reset'" },
  id_expected = { en = "bad argument #1 to '%s' (a lab id expected, got %s)", zh = "bad argument #1 to '%s' (需要实验 id，得到 %s)" },
  -- a value that is not saved, and why
  not_kept = { en = "warning: lab '%s', step %s: '%s' is not saved (%s); the rest of your progress is",
               zh = "警告：实验“%s”第 %s 步：'%s' 没有保存（%s）；你的其余进度已保存" },
  trimmed = { en = "note: your progress in lab '%s' held values too large to keep (%s); they were dropped, the rest is kept",
              zh = "提示：你在实验“%s”中的进度含有过大而无法保留的值（%s）；这些值已删除，其余保留" },
  why_cycle = { en = "a table that contains itself", zh = "一个包含自身的表" },
  why_deep = { en = "tables nested more than %d deep", zh = "表嵌套超过 %d 层" },
  why_many = { en = "more than %d entries", zh = "超过 %d 个条目" },
  why_long = { en = "a string of %d bytes, more than %d", zh = "长 %d 字节的字符串，超过 %d" },
  why_bytes = { en = "strings of more than %d bytes in all", zh = "字符串总长超过 %d 字节" },
  why_number = { en = "the number %s", zh = "数字 %s" },
  why_kind = { en = "a %s, not a number, boolean, string or table", zh = "%s，不是数字、布尔值、字符串或表" },
  why_key = { en = "a key that is a %s", zh = "类型为 %s 的键" },
  -- what :reset forgot
  reset_done = { en = "lab '%s' reset: %s; you start again at step 1", zh = "实验“%s”已重置：%s；你从第 1 步重新开始" },
  reset_progress = { en = "your progress is forgotten (you were at step %d, with %d answers in %d attempts and %d predictions)",
                     zh = "你的进度已清除（你在第 %d 步，%d 个答案、%d 次尝试、%d 个预测）" },
  reset_no_progress = { en = "you had no progress in it", zh = "你在其中没有进度" },
  reset_kernels = { en = "your source of kernel %s is deleted, and its skeleton is declared from now on",
                    zh = "你的核函数 %s 的源代码已删除，此后声明的是它的骨架代码" },
  reset_no_kernels = { en = "you kept no source of its kernels", zh = "你没有保存它的核函数的源代码" },
  reset_kernel_kept = { en = "warning: a kernel source of yours could not be deleted (%s)", zh = "警告：无法删除你的一份核函数源代码（%s）" },
  reset_and = { en = "; ", zh = "；" },
}
local say = u.messages("progress", messages)

local told = {}   -- the lines tell_once has shown

-- Tells the student one line on stderr, as the C side's notices are.
local function tell(key, ...)
  io.stdout:flush()
  io.stderr:write("warplab: ", say(key, ...), "\n")
end

-- Tells a line once in the session: a damaged lab read again is not news.
local function tell_once(key, ...)
  local id = key .. "\0" .. table.concat(table.pack(...), "\0")
  if told[id] then return end
  told[id] = true
  tell(key, ...)
end

---------------------------------------------------------------------------
-- What may be saved
---------------------------------------------------------------------------

-- The most a saved value may hold (docs/results.md, "What is saved"): each
-- string, how deep tables nest (a step's evidence holds its results list,
-- each result a table of tables), how many entries and string bytes in all;
-- and the attempts a step's evidence keeps (the last ones).
local LIMITS = { string_bytes = 4096, depth = 6, entries = 20000, bytes = 1 << 20, attempts = 1000 }
progress.LIMITS = LIMITS

-- nil when value may be saved: numbers (finite), booleans, strings of at
-- most LIMITS.string_bytes, and tables of them with string or integer keys,
-- no deeper and no larger than LIMITS, holding no cycle. Else why not.
local function unsaveable(value)
  local entries, bytes, on_path = 0, 0, {}
  local function check(v, depth)
    local kind = type(v)
    if kind == "boolean" then return nil end
    if kind == "number" then
      return (v ~= v or v == math.huge or v == -math.huge) and say("why_number", tostring(v)) or nil
    end
    if kind == "string" then
      bytes = bytes + #v
      if #v > LIMITS.string_bytes then return say("why_long", #v, LIMITS.string_bytes) end
      return bytes > LIMITS.bytes and say("why_bytes", LIMITS.bytes) or nil
    end
    if kind ~= "table" then return say("why_kind", kind) end
    if on_path[v] then return say("why_cycle") end
    if depth > LIMITS.depth then return say("why_deep", LIMITS.depth) end
    on_path[v] = true
    for k, x in next, v do
      entries = entries + 1
      if entries > LIMITS.entries then return say("why_many", LIMITS.entries) end
      if type(k) ~= "string" and math.type(k) ~= "integer" then return say("why_key", type(k)) end
      local why = check(k, depth + 1) or check(x, depth + 1)
      if why then return why end
    end
    on_path[v] = nil
    return nil
  end
  return check(value, 1)
end
progress.unsaveable = unsaveable

-- The last LIMITS.attempts attempts of a list, each one that may be saved;
-- and why one could not, or nil.
local function saveable_attempts(list)
  local kept, why = json.list(), nil
  for i = math.max(1, #list - LIMITS.attempts + 1), #list do
    local problem = unsaveable(list[i])
    if problem then why = why or problem else kept[#kept + 1] = list[i] end
  end
  return kept, why
end

-- The fields of a step's evidence that may be saved (a copy), and the
-- first field left out (in part, for attempts) with why, or nil when none
-- was. The attempts grow with every answer: each is checked alone.
local function saveable_fields(evidence)
  local kept, left_out, why = {}, nil, nil
  for field, value in next, evidence do
    local problem
    if field == "attempts" and type(value) == "table" then
      kept.attempts, problem = saveable_attempts(value)
    else
      problem = type(field) ~= "string" and say("why_key", type(field)) or unsaveable(value)
      if not problem then kept[field] = value end
    end
    if problem then left_out, why = left_out or tostring(field), why or problem end
  end
  return kept, left_out, why
end

---------------------------------------------------------------------------
-- Records, checked and repaired
---------------------------------------------------------------------------

local function default_record()
  return { step = 1, done = {}, answers = {}, attempts = {}, first_try = {} }
end

-- A key of done, answers, attempts and first_try: a step number as a string.
local function is_step_key(key)
  return type(key) == "string" and key:match("^[1-9]%d*$") ~= nil
end

local function is_true(v) return v == true end
local function is_string(v) return type(v) == "string" and #v <= LIMITS.string_bytes end
local function is_count(v) return math.type(v) == "integer" and v >= 0 end

-- The step-keyed tables of a record and what their values must be; required ones
-- were written by every version of warplab, so their absence is damage too.
local maps = {
  { field = "done", valid = is_true, required = true },
  { field = "answers", valid = is_string, required = true },
  { field = "attempts", valid = is_count, required = true },
  { field = "first_try", valid = is_true },
  { field = "predictions", valid = function(v) return type(v) == "number" and v == v end },
  { field = "evidence", valid = function(v) return type(v) == "table" and not getmetatable(v) end },
}

-- Keeps the entries of map with a step key and a valid value; true as the second
-- value when something had to go.
local function clean_map(map, spec)
  if map == nil or map == json.null then return {}, spec.required end
  if type(map) ~= "table" or getmetatable(map) then return {}, true end
  local kept, dropped = {}, false
  for k, v in pairs(map) do
    if is_step_key(k) and spec.valid(v) then kept[k] = v else dropped = true end
  end
  return kept, dropped
end

-- A record with every field of the right type: bad fields reset to their defaults,
-- the rest (fields this version does not know included) kept. Second value: whether
-- anything was reset.
local function repaired(record)
  if type(record) ~= "table" or getmetatable(record) then return default_record(), true end
  local fixed, damaged = {}, false
  for k, v in pairs(record) do fixed[k] = v end
  if math.type(record.step) ~= "integer" or record.step < 1 then
    fixed.step, damaged = 1, true
  end
  for _, spec in ipairs(maps) do
    local kept, dropped = clean_map(record[spec.field], spec)
    fixed[spec.field], damaged = kept, damaged or dropped
  end
  for _, field in ipairs({ "finished", "updated" }) do
    local v = record[field]
    if v == json.null then
      fixed[field] = nil
    elseif v ~= nil and type(v) ~= "string" then
      fixed[field], damaged = nil, true
    end
  end
  return fixed, damaged
end

-- Drops what could not be saved today from a record's evidence (a file an
-- older warplab bloated): the first reason, or nil when nothing went.
local function trim_evidence(record)
  local first
  for key, evidence in next, record.evidence or {} do   -- a record reset whole has none
    local kept, left_out, why = saveable_fields(evidence)
    if left_out then record.evidence[key], first = kept, first or why end
  end
  return first
end

-- Repairs every lab of a progress file's data in place, telling the student
-- which; true when a value too large to keep was dropped.
local function repair(data)
  local any_trimmed = false
  for id, record in pairs(data.labs) do
    if type(id) ~= "string" or id == "" then
      data.labs[id] = nil
      tell_once("repaired", tostring(id))
    else
      local fixed, damaged = repaired(record)
      local trimmed = trim_evidence(fixed)
      data.labs[id] = fixed
      if damaged then tell_once("repaired", id) end
      if trimmed then tell_once("trimmed", id, trimmed) end
      any_trimmed = any_trimmed or trimmed ~= nil
    end
  end
  return any_trimmed
end

-- The evidence a change may save: a copy without the fields that cannot be
-- saved, each of which is named in one line.
local function checked_evidence(change, evidence)
  if evidence == nil then return nil end
  if type(evidence) ~= "table" then evidence = { value = evidence } end
  local kept, left_out, why = saveable_fields(evidence)
  if left_out then tell("not_kept", change.id, change.key, left_out, why) end
  return kept
end

---------------------------------------------------------------------------
-- Changes
---------------------------------------------------------------------------

-- A step key from a caller's argument: a step number, as an integer or a string.
local function check_key(value, argument)
  if math.type(value) == "integer" and value >= 1 then return tostring(value) end
  if is_step_key(value) then return value end
  error(say("step_expected", argument, type(value) == "string" and "'" .. value .. "'" or tostring(value)), 4)
end

-- The evidence of a step (record.evidence[key]): its attempts in order, each
-- with its verdict and time, and the fields of the last one's evidence (the
-- result it was judged on, the expected value, a prediction's numbers).
local function keep_evidence(record, change, attempt)
  if not change.evidence and not attempt then return end
  record.evidence = record.evidence or {}
  local kept = record.evidence[change.key] or {}
  for k, v in pairs(deep_copy(change.evidence or {})) do kept[k] = v end
  if attempt then
    kept.attempts = type(kept.attempts) == "table" and kept.attempts or {}
    attempt.at = change.at
    kept.attempts[#kept.attempts + 1] = attempt
    if #kept.attempts > LIMITS.attempts then table.remove(kept.attempts, 1) end
  end
  record.evidence[change.key] = kept
end

-- Each change: checks its arguments into a change record, and applies one to a lab's record.
local changes = {
  step = {
    check = function(change, n)
      if math.type(n) ~= "integer" or n < 1 then
        error(say("step_expected", 3, tostring(n)), 3)
      end
      change.n = n
    end,
    apply = function(record, change) record.step = change.n end,
  },
  attempt = {   -- an answer; evidence (optional): what it was judged on, for a submission
    check = function(change, key, text, passed, evidence)
      change.key = check_key(key, 3)
      if type(text) ~= "string" then
        error(say("answer_expected", type(text)), 3)
      end
      if #text > LIMITS.string_bytes then text = text:sub(1, LIMITS.string_bytes - 3) .. "..." end   -- the answer, cut
      change.text, change.passed = text, passed and true or false
      change.recorded = passed == "recorded"   -- a released lab's assessed answer: judged only by --grade
      change.evidence = checked_evidence(change, evidence)
    end,
    apply = function(record, change)
      local key = change.key
      record.attempts[key] = (record.attempts[key] or 0) + 1
      record.answers[key] = change.text
      if change.recorded then
        record.done[key] = true
      elseif change.passed then
        record.done[key] = true
        if record.attempts[key] == 1 then record.first_try[key] = true end
      end
      local verdict = change.recorded and "recorded" or change.passed and "right" or "wrong"
      keep_evidence(record, change, { answer = change.text, verdict = verdict })
    end,
  },
  predict = {   -- a prediction is never right or wrong: its gap to the student's run, as a fraction of it
    check = function(change, key, gap, evidence)
      change.key = check_key(key, 3)
      if type(gap) ~= "number" or gap ~= gap then
        error(say("gap_expected", type(gap)), 3)
      end
      change.gap, change.evidence = gap, checked_evidence(change, evidence)
    end,
    apply = function(record, change)
      record.predictions = record.predictions or {}
      record.predictions[change.key] = change.gap
      record.done[change.key] = true
      keep_evidence(record, change)
    end,
  },
  reveal = {
    check = function(change, key) change.key = check_key(key, 3) end,
    apply = function(record, change) record.done[change.key] = true end,
  },
  finished = {
    check = function() end,
    apply = function(record, change) record.finished = record.finished or change.at end,
  },
  reset = { check = function() end },
}

-- Applies one change to the progress data (all labs).
local function apply(data, change)
  if change.kind == "reset" then
    data.labs[change.id] = nil
    return
  end
  local record = data.labs[change.id] or default_record()
  data.labs[change.id] = record
  changes[change.kind].apply(record, change)
  record.updated = change.at
end

---------------------------------------------------------------------------
-- The file
---------------------------------------------------------------------------

local memory          -- the progress, when it lives in memory only (use_memory, or no home)
local pending = {}    -- changes whose save failed, applied again at the next save
local last_read       -- what the file held when last read, for when it cannot be read
local failing         -- the reason the last save failed, until one succeeds

local function empty() return { labs = {} } end

-- The data with the pending changes applied: a copy.
local function with_pending(data)
  local copy = deep_copy(data)
  for _, change in ipairs(pending) do apply(copy, change) end
  return copy
end

-- Renames a damaged progress file aside, with the time in its name, and says so.
local function set_aside(path, problem)
  local base = path .. ".corrupt-" .. os.date("!%Y%m%dT%H%M%SZ")
  local aside, n = base, 1
  while core.realpath(aside) do   -- a name not taken yet
    n = n + 1
    aside = base .. "-" .. n
  end
  local ok, why = os.rename(path, aside)
  if ok then tell("corrupt", path, problem, aside) else tell_once("corrupt_stays", path, problem, tostring(why)) end
  return ok, why
end

local read_disk   -- read_disk(path, locked): what a progress file holds (below)

-- A student's progress before their first save: what the account's own
-- file holds (an older warplab kept every student's there), so that
-- nothing is lost; empty when there is none.
local function first_progress(path)
  local account = core.data_path("progress.json")
  if not account or account == path then return empty() end
  return read_disk(account, false) or empty()
end

-- What the progress file holds, repaired; a damaged file is set aside and empty data
-- returned. nil and the reason when the file is there but cannot be read (or is
-- damaged and cannot be set aside: a save must not write over it then).
-- A file repaired is written back at once where the caller holds the lock.
function read_disk(path, locked)
  local text, why, errno = core.read_file(path)
  if not text then
    if errno == NO_SUCH_FILE then return first_progress(path) end
    return nil, why
  end
  local data, problem = json.decode(text)
  if type(data) ~= "table" or getmetatable(data) or type(data.labs) ~= "table" or getmetatable(data.labs) then
    local moved, why_not = set_aside(path, problem or say("not_progress"))
    if not moved then return nil, path .. ": " .. tostring(why_not) end
    return empty()
  end
  if repair(data) and locked then   -- no later read pays for the repair again
    core.write_file(path, json.encode(data, 2) .. "\n")
  end
  return data
end

-- The file's path, or nil when there is no home (progress then lives in memory, said once):
-- the account's progress.json, or with a student ID (--student, $WARPLAB_STUDENT)
-- students/ID/progress.json, so that students who share one account keep theirs apart.
local function file_path()
  if memory then return nil end
  local student = os.getenv("WARPLAB_STUDENT") or ""
  local path = core.data_path(student ~= "" and ("students/" .. student .. "/progress.json") or "progress.json")
  if not path then
    tell_once("no_home")
    memory = with_pending(last_read or empty())
    pending = {}
  end
  return path
end

-- The progress as it is now: the file's (read under the lock) with the changes not yet saved.
local function current()
  local path = file_path()
  if not path then return memory end
  local lock <close> = core.lock(path .. ".lock")   -- without a lock (nil), still read
  local data = read_disk(path, lock ~= nil)
  if data then last_read = data end
  return with_pending(last_read or empty())
end

-- Saves the pending changes: lock, read, apply them to what the file holds, write, unlock.
-- Returns the progress after them, saved or not.
local function save(path)
  local lock <close>, not_locked = core.lock(path .. ".lock")
  local data, why = read_disk(path, lock ~= nil)
  local merged, ok, reason
  if not lock then   -- another shell is saving: writing now could lose its change; this one waits for the next save
    merged, reason = with_pending(data or last_read or empty()), not_locked
  elseif data then
    last_read = data
    merged = with_pending(data)
    ok, reason = core.write_file(path, json.encode(merged, 2) .. "\n")
  else   -- there but unreadable: writing over it would lose what it holds
    merged, reason = with_pending(last_read or empty()), why
  end
  if not ok then
    if failing ~= reason then tell("not_saved", reason) end   -- once while it fails the same way
    failing = reason
    return merged
  end
  pending, last_read = {}, merged
  if failing then tell("saved_again", path) end
  failing = nil
  return merged
end

---------------------------------------------------------------------------
-- progress
---------------------------------------------------------------------------

local function check_id(id, name)
  if type(id) ~= "string" or id == "" then
    error(say("id_expected", name, id == "" and "''" or type(id)), 3)
  end
end

-- progress.get(id): the record of one lab, a copy, never nil.
function progress.get(id)
  check_id(id, "get")
  return deep_copy(current().labs[id]) or default_record()
end

-- progress.all(): {[id] = record} for every lab with progress.
function progress.all()
  return deep_copy(current().labs)
end

-- progress.update(id, change, ...): applies the change and saves it at once;
-- returns the lab's record after it (a copy).
function progress.update(id, kind, ...)
  check_id(id, "update")
  local spec = changes[kind]
  if not spec then
    error(say("change_expected", say("changes_or"), type(kind) == "string" and "'" .. kind .. "'" or type(kind)), 2)
  end
  local change = { id = id, kind = kind, at = files.utc_now() }
  spec.check(change, ...)
  local path = file_path()
  local data
  if path then
    pending[#pending + 1] = change
    local saved, merged = pcall(save, path)
    if not saved then   -- a change that breaks the save is dropped: it must not block every later one
      table.remove(pending)
      error(merged, 0)
    end
    data = merged
  else
    apply(memory, change)
    data = memory
  end
  return deep_copy(data.labs[id]) or default_record()
end

-- progress.use_memory(): from now on progress starts empty and lives in memory
-- only (a batch run that was not asked to --save).
function progress.use_memory()
  memory, pending = empty(), {}
end

-- progress.in_memory(): whether progress lives in memory only (a batch
-- run without --save, or no home): what the student writes then is kept
-- for the session alone (their kernels' sources too, lua/kernel.lua).
function progress.in_memory()
  return memory ~= nil
end

-- The number of entries of a step-keyed table, and the sum of its values when they are counts.
local function count_entries(map)
  local entries, sum = 0, 0
  for _, value in pairs(map or {}) do
    entries = entries + 1
    sum = sum + (math.type(value) == "integer" and value or 0)
  end
  return entries, sum
end

-- progress.reset_report(name, before, has_kernels, forgotten, failed):
-- what :reset of lab name forgot, as the student reads it: before, the lab's
-- record before it; has_kernels, whether the lab has kernels to write;
-- forgotten, the kernels whose source of the student's was deleted; failed,
-- "name: why" of those that could not be.
function progress.reset_report(name, before, has_kernels, forgotten, failed)
  local parts = {}
  if before.updated then
    local answers = count_entries(before.answers)
    local _, attempts = count_entries(before.attempts)
    local predictions = count_entries(before.predictions)
    parts[1] = say("reset_progress", before.step, answers, attempts, predictions)
  else
    parts[1] = say("reset_no_progress")
  end
  if #forgotten > 0 then
    parts[#parts + 1] = say("reset_kernels", table.concat(forgotten, ", "))
  elseif has_kernels and #failed == 0 then
    parts[#parts + 1] = say("reset_no_kernels")
  end
  local lines = { say("reset_done", name, table.concat(parts, say("reset_and"))) }
  for _, why in ipairs(failed) do lines[#lines + 1] = say("reset_kernel_kept", why) end
  return table.concat(lines, "\n")
end

return progress
