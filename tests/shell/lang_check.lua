-- lang_check.lua — run by tests/shell/lang.sh under --lang zh: everything a launch, a
-- sweep, compare, show, explain, info, help, the banner, the colon commands
-- and a lab print must be Chinese, apart from code, names, units, numbers and
-- the glossary's words kept in English; and every lab's Chinese must use the
-- glossary's terms (docs/glossary.md).
-- arg[1]: docs/glossary.md; arg[2]: the labs folder; arg[3]: a file of the
-- shell's error lines (one process each, made by lang.sh); arg[4]: a scratch folder.
local t = dofile(os.getenv("srcdir") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local glossary_path, labs_dir, errors_path, scratch = arg[1], arg[2], arg[3], arg[4]

local function read(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("a")
  file:close()
  return text
end

---------------------------------------------------------------------------
-- The glossary: its terms (English, Chinese, words not used) and the words kept in English
---------------------------------------------------------------------------

local function split_list(cell)
  local list = {}
  for item in cell:gmatch("[^,]+") do
    item = item:match("^%s*(.-)%s*$")
    if item ~= "" then list[#list + 1] = item end
  end
  return list
end

local function read_glossary(text)
  local terms, kept, section = {}, {}, nil
  for line in text:gmatch("[^\n]*") do
    section = line:match("^## (%a+)") or section
    local en, zh, avoid = line:match("^|([^|]*)|([^|]*)|([^|]*)|$")
    en = en and en:match("^%s*(.-)%s*$")
    if section == "Terms" and en and en ~= "English" and not en:find("^%-") then
      terms[#terms + 1] = { en = en, zh = split_list(zh), avoid = split_list(avoid) }
    end
    local words = section == "Kept" and line:match("^`(.*)`$")
    if words then for word in words:gmatch("%S+") do kept[word] = true end end
  end
  return terms, kept
end

local terms, kept = read_glossary(read(glossary_path))
t.ok(#terms >= 40, "the glossary has its terms (" .. #terms .. ")")
t.ok(kept.warp and kept.DRAM, "the glossary lists the words kept in English")

---------------------------------------------------------------------------
-- The words that may stay English: code names the shell knows, units, keys
---------------------------------------------------------------------------

local allowed = {}
for word in pairs(kept) do allowed[word] = true end
for _, family in ipairs(core.families()) do
  allowed[family.name] = true
  for _, p in ipairs(family.params) do
    allowed[p.name] = true
    for choice in (p.allowed or ""):gmatch('"([^"]*)"') do allowed[choice] = true end
  end
end
for _, lab in ipairs(core.lab_names()) do allowed[lab] = true end
for _, profile in ipairs(core.profiles()) do   -- h100-pcie: its words too
  allowed[profile] = true
  for word in profile:gmatch("%a+") do allowed[word] = true end
end
-- Code names: the shell's functions, the fields of a result and of device(),
-- the options of config(), and the program's own name.
for name, value in pairs(_G) do
  if type(value) == "function" then allowed[name] = true end
end
local function allow_keys(t, depth)
  for key, value in pairs(t) do
    if type(key) == "string" then allowed[key] = true end
    if type(value) == "table" and depth < 3 then allow_keys(value, depth + 1) end
  end
end
allow_keys(launch("copy", { n = 1024 }), 1)
allow_keys(device(), 1)
allow_keys(config(), 1)
-- (samples, correct and mismatch are fields only a GPU result has)
for name in ("warplab samples correct mismatch"):gmatch("%S+") do allowed[name] = true end
for word in ([[ms us ns GB MB KB kB TB KiB MiB GiB TiB
              MHz Tab Ctrl Up Enter Esc LANG HOME
              nil number string table boolean userdata thread
              sim gpu en zh svg png csv json markdown txt lua md reload labs report
              rtx GeForce Hopper Ampere Ada Tesla Slurm sbatch]]):gmatch("%S+") do
  allowed[word] = true
end

-- The text with code taken out: escapes, quoted names, calls, tables,
-- assignments and formulas (up to the Chinese that follows), dotted and underscored names, colon commands, paths, hex.
local function without_code(line)
  return (line:gsub("\27%[[%d;?]*%a", " ")
              :gsub("`[^`]*`", " ")
              :gsub("[%w_%-%.]+/[%w_%-%./]*%.%a+", " ")
              :gsub("[~%.]?/[%w_%-%./]+", " ")
              :gsub("[%w_%-]+%.%a+", " ")
              :gsub("%f[%w%-]%-%-?%a[%w%-]*", " ")
              :gsub('%b""', " "):gsub("%b''", " ")
              :gsub("[%a_][%w_%.:]*%s*%b()", " ")
              :gsub("%b{}", " ")
              :gsub("[%a_][%w_]*%b[]", " ")
              :gsub("[%a_][%w_]*%s*[%+%-%*/]?=[^\128-\255]*", " ")
              :gsub("[%a_]*[%w]*[_%.][%w_%.]*[%w_]", " ")
              :gsub(":%a+", " ")
              :gsub("0x%x+", " ")
              :gsub("%f[%w]%x*%d%x*%f[%W]", " "))   -- hex with a digit: a source's version
end

-- A line of C, such as the kernel source info() shows: an ASCII semicolon
-- or brace (Chinese sentences use full-width punctuation), or a comment.
local function is_c_code(line)
  return line:find("[;{}]") or line:find("^%s*//") or line:find("^%s*/?%*") or line:find("^%s*#%a")
end

-- The English words of a token not allowed as it stands: "stencil1d" and
-- "working-set" are names; "loads" and "sectors/request" are not.
local function words_of(token, found)
  if allowed[token] then return end
  for word in token:gmatch("[A-Za-z]+") do
    if #word > 1 and not allowed[word] then found[#found + 1] = word end
  end
end

-- The text without the kernel sources info() and the labs show: C code.
local function without_sources(text)
  for _, family in ipairs(core.families()) do
    local source = family.source or "\0"
    local from, to = text:find(source, 1, true)
    while from do
      text = text:sub(1, from - 1) .. text:sub(to + 1)
      from, to = text:find(source, 1, true)
    end
  end
  return text
end

-- Every English word of text that is not allowed: a list of "word · the line".
local function english_in(text)
  local found, seen = {}, {}
  text = without_sources(text)
  for line in text:gmatch("[^\n]+") do
    if not is_c_code(line) then
      local words = {}
      for token in without_code(line):gmatch("[%w%-]+") do words_of(token, words) end
      for _, word in ipairs(words) do
        if not seen[word] then
          seen[word] = true
          found[#found + 1] = word .. "  ·  " .. line
        end
      end
    end
  end
  return found
end

local function no_english(text, name, advice)
  local found = english_in(text)
  t.ok(#found == 0, name .. " is all Chinese")
  if #found > 0 and advice then print("#   " .. advice) end
  for i = 1, math.min(#found, 40) do print("#   " .. found[i]) end
  if #found > 40 then print("#   ... and " .. (#found - 40) .. " more") end
end

-- What fn printed.
local function printed(fn)
  core.capture(true)
  local ok, message = pcall(fn)
  local text = core.capture(false)
  if not ok then text = text .. "\nerror: " .. tostring(message) .. "\n" end
  return text
end

---------------------------------------------------------------------------
-- The shell's output under zh
---------------------------------------------------------------------------

local results = {}
local launches = printed(function()
  for _, family in ipairs(core.families()) do
    local r = launch(family.name)
    results[#results + 1] = r
    print(r)
    show(r)
  end
end)
no_english(launches, "a launch and show() of every family")

no_english(printed(function()
  local rs = sweep("offset", { offset = range(0, 8) })
  print(rs)
  print(rs:chart_text("time"))
  print(sweep("strided", { stride = pow2(1, 8), n = 1 << 16 }))
end), "sweep tables and charts")

no_english(printed(function()
  local a, b = launch("strided", { stride = 1 }), launch("strided", { stride = 8 })
  compare(a, b)
  compare(b, a)
  compare(a, a)
end), "compare")

-- Names explain() or help() accept, found by asking each word they print.
local function accepted_names(fn, list_text)
  local names = {}
  for word in list_text:gmatch("[%w_]+") do
    core.capture(true)
    local ok = pcall(fn, word)
    core.capture(false)
    if ok then names[#names + 1] = word end
  end
  return names
end

local explain_list = printed(function() explain() end)
local terms_explained = accepted_names(explain, explain_list)
for _, term in ipairs(terms_explained) do allowed[term] = true end
no_english(printed(function()
  print(explain_list)
  for _, term in ipairs(terms_explained) do explain(term) end
end), "explain() and every term")

no_english(printed(function()
  for _, family in ipairs(core.families()) do info(family.name) end
  print(kernels())
  print(device())
  print(core.banner())
end), "info of every family, kernels(), device() and the banner")

local overview = printed(function() help() end)
local topics = accepted_names(help, overview)
t.ok(#topics >= 5, "help() names its topics (" .. #topics .. ")")
no_english(printed(function()
  print(overview)
  for _, topic in ipairs(topics) do help(topic) end
end), "help() and every topic")

no_english(printed(function()
  for _, line in ipairs({ ":help", ":kernels", ":labs", ":lab tour", ":where", ":hint", ":hint", ":hint",
                          ":hint", ":answer four", ":answer 3", ":run", ":answer 4", ":next", ":back",
                          ":next", ":next", ":next", ":run", ":next", ":lab", ":lab coalesce",
                          ":lab aos_soa", ":reset tour", ":labs", ":bogus", ":h", ":answer" }) do
    core.command(line)
  end
end), "the colon commands and a lab's flow")

no_english(printed(function()
  core.labs.batch("tour", os.getenv("srcdir") .. "/tests/labs/answers/tour.txt", false)
  record(scratch .. "/session.json")
  export(results[1], scratch .. "/one.csv")
end), "a lab in batch, record() and export()")

no_english(read(errors_path), "errors at the prompt and in scripts")

---------------------------------------------------------------------------
-- The labs' Chinese and the glossary
---------------------------------------------------------------------------

-- Every zh text of a lab file, loaded with lab() and step() that collect.
local function lab_texts(path)
  local texts = {}
  local function collect(value)
    if type(value) ~= "table" then return end
    if type(value.zh) == "string" then texts[#texts + 1] = value.zh end
    for _, v in pairs(value) do collect(v) end
  end
  local env = setmetatable({ lab = collect, step = collect }, { __index = function() return function() end end })
  local chunk = assert(load(read(path), "@" .. path, "t", env))
  chunk()
  return texts
end

-- The words of the glossary's third column that text uses for a term: code
-- and the listed Chinese terms are taken out first; an English word counts
-- when it stands alone (not the `block` parameter, not the bank family).
local function avoided_in(text)
  local prose = without_code(text)
  for _, term in ipairs(terms) do
    for _, zh in ipairs(term.zh) do prose = prose:gsub(zh:gsub("%p", "%%%0"), " ") end
  end
  prose = prose:gsub("([A-Za-z]+) ?参数", " "):gsub("([A-Za-z]+) ?族", " "):gsub("参数 ?([A-Za-z]+)", " ")
  local found = {}
  for _, term in ipairs(terms) do
    for _, word in ipairs(term.avoid) do
      local pattern = word:gsub("%p", "%%%0")
      if word:find("^[A-Za-z]") then pattern = "%f[%a]" .. pattern .. "%f[%A]" end
      if prose:find(pattern) then found[#found + 1] = word .. " (for " .. term.en .. ": " .. table.concat(term.zh, ", ") .. ")" end
    end
  end
  return found
end

t.ok(#core.lab_names() >= 11, "the built-in labs are listed")
for _, name in ipairs(core.lab_names()) do
  local texts = lab_texts(labs_dir .. "/" .. name .. ".lua")
  local avoided = {}
  for _, text in ipairs(texts) do
    for _, word in ipairs(avoided_in(text)) do avoided[#avoided + 1] = word .. "  ·  " .. text:sub(1, 120) end
  end
  t.ok(#texts > 0, name .. ": its Chinese texts are found")
  t.ok(#avoided == 0, name .. ": its Chinese uses the glossary's terms")
  for i = 1, math.min(#avoided, 30) do print("#   " .. avoided[i]) end
  no_english(table.concat(texts, "\n"), name .. ": its Chinese",
             "(a code name that is not a family or parameter, such as `res`, goes in backquotes)")
end

print("1.." .. t.count)
os.exit(t.failed == 0 and 0 or 1)
