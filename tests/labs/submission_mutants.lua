-- submission_mutants.lua FOLDER CASES SEED — run by tests/labs/fuzz_submissions.sh,
-- which leaves real submissions in FOLDER/class. Writes CASES mutants of them
-- (a deterministic SEED) into FOLDER/class/mutants, each under a student ID
-- of its own that sorts before the real students, grades the class with and
-- without them, and checks that the grader ends normally with its three
-- outputs, that the real students are graded exactly as without the mutants,
-- that every mutant is a problem line or rows of its own, and that no internal
-- error (grade:123, a traceback) or raw control character appears anywhere.
local core = debug.getregistry()["warplab.core"]
local json = require("warplab.json")
local srcdir = arg[0]:match("^(.*)/tests/labs/[^/]*$") or "."
local tap = dofile(srcdir .. "/tests/lib/tap.lua")
local folder, cases, seed = arg[1], tonumber(arg[2]), tonumber(arg[3])
local class, mutants = folder .. "/class", folder .. "/class/mutants"
local fmt = string.format
math.randomseed(seed)

local function read(path) local f = io.open(path, "rb"); if not f then return nil end local t = f:read("a"); f:close(); return t end
local function pick(list) return list[math.random(#list)] end
local function copy(v) return json.decode(json.encode(v)) end

-- The real submissions: the mutants' bases.
local bases = {}
for _, entry in ipairs(core.folder_entries(class)) do
  if entry.name:match("%.json$") then bases[#bases + 1] = assert(json.decode(read(class .. "/" .. entry.name))) end
end
tap.is(#bases, 3, "three real submissions to mutate (coalescing twice, exercises with two kernels)")

---------------------------------------------------------------------------
-- Mutations
---------------------------------------------------------------------------

-- Raw JSON put in place of a value after encoding (numbers JSON's decoders
-- read as infinity or round, nesting deeper than any parser's stack, text
-- that is no JSON at all).
local RAW = { "1e999", "-1e999", "-0", "1e-400", "123456789012345678901234567890", "9007199254740993",
              "-9223372036854775809", "NaN", "Infinity", "0x10", "01", "1.", ".5", "+1", "tru", "nul",
              '"\\ud800"', '"\\u0000\\u001b[31m"', '"\\uFFFF"', '"a\\u0000b"' }
local function deep(depth, open, close) return string.rep(open, depth) .. string.rep(close, depth) end

local STRINGS = { "", "x", "\27]0;owned\7\27[31m", "\0", "\r\n\t", "\u{202E}evil", "\xff\xfe\x80", "=1+1+cmd|' /C calc'!A0",
                  "=HYPERLINK(\"http://evil.example\",\"x\")", "@SUM(A1)", "-2+3", "+1", "\t=1", "\r=1", "-5", "8",
                  "../../etc/passwd", "/etc/passwd", "coalescing.lua", "labs/coalescing.lua", "tour", "exercises",
                  "%s%s%s%n", "\\", "\"", "right", "wrong", "coalescing\0.lua", "nan", "inf", "1e999", "0x10" }

-- Each makes a new value for a field (the old one given); raw JSON comes back as {raw = text}.
local VALUES = {
  function() return { raw = pick(RAW) } end,
  function() return pick(STRINGS) end,
  function() return string.rep(pick({ "A", "\27", "\u{4E2D}", "=", "\xff" }), pick({ 5000, 100000, 1000000 })) end,
  function() return pick({ 0, -1, 1, 0.5, -0.5, 2 ^ 31, -2 ^ 63, 1e308, -1e308, math.maxinteger, math.mininteger, 3.14, 1e-300 }) end,
  function() return pick({ true, false }) end,
  function() return json.null end,
  function() return {} end,
  function() return json.list() end,
  function() return { x = 1, answer = { 1 }, [""] = "empty key" } end,
  function() return json.list({ 1, "two", json.null, {}, json.list() }) end,
  function() return { raw = deep(pick({ 50, 5000, 200000 }), "[", "]") } end,
  function() return { raw = deep(pick({ 50, 5000 }), '{"a":', "}"):gsub('"a":}', '"a":1}') } end,
  function() local t = json.list(); for i = 1, pick({ 1001, 5000 }) do t[i] = { answer = tostring(i), verdict = "wrong" } end return t end,
  function() local t = {}; for i = 1, 2000 do t["k" .. i] = i end return t end,
  function(old) return json.list({ old }) end,
  function(old) return { value = old } end,
  function() return nil end,   -- the field removed
}

-- The fields the grader reads, as paths in a submission (k: a step's index).
local function field_paths(doc)
  local steps = type(doc.steps) == "table" and #doc.steps or 1
  local k = pick({ math.random(math.max(steps, 1)), math.random(math.max(steps, 1)), steps + 1, 0 })
  return pick({
    { "student" }, { "format" }, { "version" }, { "submitted" }, { "lab" }, { "lab", "name" }, { "lab", "hash" },
    { "lab", "id" }, { "device" }, { "device", "name" }, { "device", "compute_capability" }, { "steps" }, { "steps", k },
    { "steps", k, "attempts" }, { "steps", k, "attempts", 1 }, { "steps", k, "attempts", 1, "answer" },
    { "steps", k, "attempts", 1, "verdict" }, { "steps", k, "first_try" }, { "steps", k, "gap" },
    { "steps", k, "predicted" }, { "steps", k, "measured" }, { "steps", k, "result" }, { "steps", k, "results" },
    { "steps", k, "results", 1 }, { "steps", k, "kernel" }, { "steps", k, "kernel", "source" },
    { "steps", k, "kernel", "name" }, { "steps", k, "result", "load" }, { "steps", k, "result", "params" },
    { "steps", k, "result", "load", "sectors_per_request" }, { "steps", k, "result", "correct" },
  })
end

-- Any path in the submission, down to depth 6 (keys in sorted order: the same seed, the same paths).
local function any_path(doc)
  local paths = {}
  local function walk(v, path)
    if type(v) ~= "table" or #path >= 6 then return end
    local keys = {}
    for key in pairs(v) do keys[#keys + 1] = key end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, key in ipairs(keys) do
      local p = table.move(path, 1, #path, 1, {})
      p[#p + 1] = key
      paths[#paths + 1] = p
      walk(v[key], p)
    end
  end
  walk(doc, {})
  return pick(paths)
end

-- Sets the value at path (making tables on the way), or removes it (nil).
local function set(doc, path, value)
  local t = doc
  for i = 1, #path - 1 do
    if type(t[path[i]]) ~= "table" or t[path[i]] == json.null then t[path[i]] = {} end
    t = t[path[i]]
  end
  t[path[#path]] = value
end

local function get(doc, path)
  local t = doc
  for _, key in ipairs(path) do
    if type(t) ~= "table" then return nil end
    t = t[key]
  end
  return t
end

-- Fields no submission has, anywhere.
local function add_fields(doc, path)
  local t = get(doc, path)
  if type(t) ~= "table" or t == json.null then return end
  for _ = 1, math.random(3) do
    t[pick({ "__index", "__proto__", "constructor", "extra", "1", "\27[31m", "kernel", "lab", "source" })] =
      VALUES[math.random(#VALUES)]()
  end
end

-- One mutant's JSON text: the base, its student ID, 1 to 3 changes; some
-- broken as text afterwards.
local function mutant_text(base, id)
  local doc, raws = copy(base), {}
  doc.student = id
  for _ = 1, math.random(3) do
    local path = math.random() < 0.6 and field_paths(doc) or any_path(doc)
    if path and math.random() < 0.15 then
      add_fields(doc, path)
    elseif path then
      local value = VALUES[math.random(#VALUES)](get(doc, path))
      if type(value) == "table" and value.raw and getmetatable(value) == nil and next(value, next(value)) == nil then
        raws[#raws + 1] = value.raw
        value = fmt("@@RAW%d@@", #raws)
      end
      set(doc, path, value)
    end
  end
  local text = json.encode(doc, 2):gsub('"@@RAW(%d+)@@"', function(n) return raws[tonumber(n)] end)
  if math.random() < 0.12 then
    local at = math.random(#text)
    text = pick({
      function() return text:sub(1, at) end,
      function() return text:sub(1, at - 1) .. string.char(math.random(0, 255)) .. text:sub(at + 1) end,
      function() return "\xEF\xBB\xBF" .. text end,
      function() return text .. "}" end,
      function() return "" end,
      function() return pick({ "null", "[]", "{}", "42", '"a string"', "[" .. text .. "]" }) end,
    })()
  end
  return text
end

---------------------------------------------------------------------------
-- Grading
---------------------------------------------------------------------------

-- Grades the class into report; its exit status, seconds, stdout and stderr.
local function grade(report)
  local out, err = folder .. "/" .. report .. ".out", folder .. "/" .. report .. ".err"
  local started = os.time()
  local status = core.spawn({ core.program_path(), "--sim", "--grade", class, "--report", folder .. "/" .. report,
                              "--time-limit", "30" }, { stdin = "/dev/null", stdout = out, stderr = err })
  return status, os.time() - started, read(out) or "", read(err) or ""
end

-- The cells of a CSV line, RFC 4180 quoting undone.
local function cells_of(line)
  local cells, pos = {}, 1
  while pos <= #line + 1 do
    if line:sub(pos, pos) == '"' then
      local close = pos
      repeat close = line:find('"', close + 1, true) until not close or line:sub(close + 1, close + 1) ~= '"'
      close = close or #line
      cells[#cells + 1], pos = line:sub(pos + 1, close - 1):gsub('""', '"'), close + 2
    else
      local stop = line:find(",", pos, true) or #line + 1
      cells[#cells + 1], pos = line:sub(pos, stop - 1), stop + 1
    end
  end
  return cells
end

-- The rows of the real students in a grades.csv, their files named from the
-- class; without similar_to, where a mutant that copies a real file names
-- itself (a copy, as it should).
local function real_rows(report)
  local rows, similar_to = {}, nil
  for line in (read(folder .. "/" .. report .. "/grades.csv") or ""):gmatch("[^\n]+") do
    local cells = cells_of(line)
    if not similar_to then
      for i, name in ipairs(cells) do if name == "similar_to" then similar_to = i end end
    elseif line:match("^alice,") or line:match("^bob,") or line:match("^erin,") then
      table.remove(cells, similar_to)
      rows[#rows + 1] = table.concat(cells, "\t")
    end
  end
  return table.concat(rows, "\n")
end

local baseline_status = grade("baseline")
local baseline = real_rows("baseline")
tap.ok(baseline_status == 0 and #baseline > 0, "the real class alone is graded, exit 0")

core.make_folder(mutants)
local files = {}
for i = 1, cases do
  local id = fmt("0m%03d", i)
  local path = fmt("%s/%s.json", mutants, id)
  assert(core.write_file(path, mutant_text(bases[math.random(#bases)], id)))
  files[#files + 1] = path
end

local status, seconds, out, err = grade("fuzzed")
print(fmt("# %d mutants and 3 real submissions graded in %d s (exit %s)", cases, seconds, tostring(status)))
tap.ok(status == 0 or status == 1, "the grader ends normally (exit 0 or 1), not with " .. tostring(status))
local outputs = {}
for _, name in ipairs({ "grades.csv", "grades.json", "report.html" }) do
  outputs[name] = read(folder .. "/fuzzed/" .. name)
end
tap.ok(outputs["grades.csv"] and outputs["grades.json"] and outputs["report.html"] and #outputs["report.html"] > 0,
       "it writes grades.csv, grades.json and report.html")
tap.is(real_rows("fuzzed"), baseline, "the real students are graded exactly as without the mutants")

-- Internal errors: a position in one of warplab's own Lua modules, or a traceback.
local MODULES = { "grade", "labs", "prelude", "text", "registry", "result", "card", "warp_map", "device", "families",
                  "help", "values", "files", "export", "kernel", "compile", "progress", "sweep", "chart", "plot",
                  "complete", "globals", "json", "record", "lab_release", "main" }
local function internal_error(text)
  for _, name in ipairs(MODULES) do
    local found = text:match("%f[%w]" .. name .. ":%d+:[^\n]*")
    if found then return found end
  end
  return text:match("stack traceback[^\n]*") or text:match("%(command line%):%d+[^\n]*")
end
local texts = { stdout = out, stderr = err, ["grades.csv"] = outputs["grades.csv"] or "",
                ["grades.json"] = outputs["grades.json"] or "", ["report.html"] = outputs["report.html"] or "" }
local leaks = {}
for name, text in pairs(texts) do
  local found = internal_error(text)
  if found then leaks[#leaks + 1] = name .. ": " .. found end
end
table.sort(leaks)
tap.ok(#leaks == 0, "no internal error (grade:NNN, labs:NNN, a traceback) in any output")
for _, leak in ipairs(leaks) do print("#   " .. leak:sub(1, 300)) end

local raw = {}
for _, name in ipairs({ "stdout", "stderr", "grades.csv", "report.html" }) do
  local at = texts[name]:find("[%z\1-\8\11-\31\127]")
  if at then raw[#raw + 1] = fmt("%s at byte %d: %q", name, at, texts[name]:sub(math.max(1, at - 30), at + 10)) end
end
tap.ok(#raw == 0, "no raw control character on the terminal, in grades.csv or in report.html")
for _, where in ipairs(raw) do print("#   " .. where) end

local problems, lines_ok = {}, true
for line in err:gmatch("[^\n]+") do
  local path = line:match("^warplab: (.-%.json): ")
  if path then problems[path] = true else lines_ok = false; print("#   not a problem line: " .. line:sub(1, 200)) end
end
tap.ok(lines_ok, "every line on standard error is one file's problem ('warplab: FILE: ...')")

local csv, unaccounted, refused, graded, stopped = outputs["grades.csv"] or "", {}, 0, 0, 0
for _, path in ipairs(files) do
  local in_csv = csv:find("," .. path .. ",", 1, true) ~= nil
  if problems[path] then refused = refused + 1 end
  if in_csv then graded = graded + 1 end
  if not problems[path] and not in_csv then unaccounted[#unaccounted + 1] = path end
end
for _ in err:gmatch("grading stopped after") do stopped = stopped + 1 end
print(fmt("# %d mutants refused or noted on standard error, %d graded with rows, %d stopped by the deadline",
          refused, graded, stopped))
tap.ok(#unaccounted == 0, "every mutant is a problem line or rows of its own")
for i = 1, math.min(5, #unaccounted) do print("#   unaccounted: " .. unaccounted[i]) end
tap.ok(refused > cases / 4 and graded > cases / 10, "the mutants are both refused and graded (the fuzz reaches both)")

print("1.." .. tap.count)
os.exit(tap.failed == 0 and 0 or 1)
