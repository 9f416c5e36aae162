-- record.lua (warplab.record): record(), which keeps what a student typed
-- and got, to hand in, and the session's journal, the REPL's own record of
-- every input, kept as it goes.
local core = require "warplab.core"
local u = require "warplab.text"
local files = require "warplab.files"
local value_line = require("warplab.values").value_line
local json = require "warplab.json"
local export = require "warplab.export"
local kernel = require "warplab.kernel"
local plain, result_list, device_facts = export.plain, export.result_list, export.device_facts

local messages = {
  -- record() and the session's journal
  where = { en = "This session is kept as it goes in %s", zh = "本次会话会随时记录在 %s" },
  failed = { en = "warning: this session's record cannot be kept (%s); record(\"file.json\") still works",
             zh = "警告：无法保存本次会话的记录（%s）；record(\"file.json\") 仍然可用" },
  wrote = { en = "record: wrote %d inputs and %d answers to %s", zh = "record()：已把 %d 条输入和 %d 个答案写入 %s" },
  started = { en = "record: keeping every input from now on; record() writes them to %s",
              zh = "record()：从现在起记录每一条输入；record() 把它们写入 %s" },
  record_nul = { en = "bad argument #1 to 'record' (a file name without NUL bytes expected)",
                 zh = "bad argument #1 to 'record' (需要不含 NUL 字节的文件名)" },
  record_kind = { en = "bad argument #1 to 'record' (a file name ending in .json expected)",
                  zh = "bad argument #1 to 'record' (需要以 .json 结尾的文件名)" },
  not_recording = { en = "record: nothing is being recorded (record(\"file.json\") starts)",
                    zh = "record()：现在没有在记录（record(\"file.json\") 开始记录）" },
  record_failed = { en = "record: cannot write %s; still recording: record(\"other.json\") to choose another file, then record()",
                    zh = "record()：无法写入 %s；仍在记录：用 record(\"other.json\") 换一个文件，再调用 record()" },
}
local say = u.messages("record", messages)

local record = {}


local recording   -- record("file.json")'s: {path=, started=, device=, version=, commands=}
local journal     -- the REPL's own record of the session: {path=, file=}
local entry       -- what is being kept of the input running now
local last_kept   -- the last result an entry kept


-- Stops keeping the journal, saying why once.
local function journal_failed(why)
  if journal.file then journal.file:close() end
  journal.file = nil
  print(say("failed", tostring(why)))
end

-- Appends one entry to the journal, a JSON line, flushed: a crash loses nothing.
local function journal_write(done)
  if not (journal and journal.file) then return end
  local ok, why = journal.file:write(json.encode(done), "\n")
  if ok then ok, why = journal.file:flush() end
  if not ok then journal_failed(why) end
end

-- The results an input made: the student's last result or list, when new since the last entry.
local function new_results()
  local list, result = core.last_results(), core.last_result()
  if result == nil or result == last_kept then return nil end
  last_kept = result
  local kept = {}
  for i, r in ipairs(list and list[#list] == result and list or { result }) do kept[i] = plain(r) end
  return kept
end

-- Ends the entry being kept: into the recording and the journal.
local function finish_entry(printed)
  local done = entry
  if not done then return end
  entry = nil
  done.printed = printed ~= "" and printed or nil
  done.results = done.results or new_results()
  if recording then recording.commands[#recording.commands + 1] = done end
  journal_write(done)
end

-- Starts keeping an input; answers given before it was known (answer() in a chunk, :answer) go with it.
local function start_entry(fields)
  if entry and not (entry.code or entry.command) then
    fields.answers, entry = entry.answers, nil
  end
  finish_entry()
  fields.at = files.utc_now()
  entry = fields
end

-- The values a chunk returned, as data.
local function values_data(...)
  local values = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    local results = result_list(v)
    if results then
      local list = {}
      for k, r in ipairs(results) do list[k] = plain(r) end
      values[i] = { results = list }
    else
      values[i] = type(v) == "table" and value_line(v) or v
    end
  end
  return values
end

-- Called after each chunk that ran (at the prompt, or a lab's experiment), with what it returned.
function record.after_chunk(code, ...)
  kernel.note_sources()
  start_entry({ code = code, values = values_data(...), results = new_results() })
end

-- Called by the prompt when a chunk is done, with all it printed (errors too).
function record.chunk_done(code, printed)
  if not (entry and entry.code == code) then start_entry({ code = code }) end
  finish_entry(printed)
end

-- Called by the prompt when a colon command is done, with all it printed.
function record.command_done(line, printed)
  start_entry({ command = line })
  finish_entry(printed)
end

-- A lab's verdict on an answer ({lab=, step=, answer=, verdict=, gap=}), kept with the input that gave it.
function record.keep_answer(answer)
  if not entry then start_entry({}) end
  entry.answers = entry.answers or {}
  entry.answers[#entry.answers + 1] = answer
end

-- At the prompt's start: the journal of this session, in the state folder; says where.
function record.start_journal()
  local path = core.journal_path()
  if not path then return end
  journal = { path = path }
  local file, why = io.open(path, "a")
  if not file then return journal_failed(why) end
  journal.file = file
  print(say("where", path))
  journal_write({ started = files.utc_now(), device = device_facts(), version = core.version })
end

-- record("session.json") starts keeping every command typed at the prompt and what it returned
-- (while recording, it changes the file the recording goes to, keeping what it has);
-- record() stops and writes them, with the device, to the file. Returns the file name.
-- When the file cannot be written, the recording goes on, to be written elsewhere.
function record.record(path)
  if path ~= nil then
    if type(path) == "string" and path:find("%z") then error(say("record_nul"), 2) end
    if type(path) ~= "string" or not path:find("%.json$") then error(say("record_kind"), 2) end
    if recording then
      recording.path = path
    else
      recording = { path = path, started = files.utc_now(), device = device_facts(),
                    version = core.version, commands = {} }
      print(say("started", path))
    end
    return path
  end
  if not recording then error(say("not_recording"), 2) end
  finish_entry()   -- the input before this one, if it is still open
  local r = recording
  local text = json.encode({ path = r.path, started = r.started, stopped = files.utc_now(), device = r.device,
                             version = r.version, commands = json.list(r.commands) }, 2) .. "\n"
  local ok, why = core.write_file(r.path, text)
  if not ok then
    error(say("record_failed", why), 2)
  end
  recording = nil
  local answers = 0
  for _, c in ipairs(r.commands) do answers = answers + #(c.answers or {}) end
  print(say("wrote", #r.commands, answers, r.path))
  return r.path
end

return record
