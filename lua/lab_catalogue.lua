-- lab_catalogue.lua (warplab.lab_catalogue): the labs there are and
-- finding one by name: the built-in ones, those opened by path this
-- session, then the *.lua files in WARPLAB_LABS_PATH's folders and in
-- $XDG_DATA_HOME/warplab/labs; the first of a name wins, and a name that is
-- none gets the nearest ("did you mean").
local core = require "warplab.core"
local text = require "warplab.text"
local lab_text = require "warplab.lab_text"
local lab_definition = require "warplab.lab_definition"

local clean, visible = lab_text.clean, lab_text.visible

local messages = {
  unknown_lab = { en = "unknown lab '%s'%s (labs: %s)", zh = "没有名为 '%s' 的实验%s（实验：%s）" },
  did_you_mean = { en = "; did you mean '%s'?", zh = "；是不是 '%s'？" },
  cannot_read = { en = "cannot read %s %s", zh = "无法读取%s %s" },
  what_answers = { en = "answers", zh = "答案文件" },
  what_lab = { en = "lab", zh = "实验" },
  bad_name = { en = "bad lab name (a name or a .lua file expected, got %s)", zh = "实验名不对（需要名字或 .lua 文件，得到 %s）" },
  name_with_nul = { en = "a name with a NUL byte", zh = "含 NUL 字节的名字" },
  -- a lab that is not well formed: for its author
}
local say = text.messages("lab_catalogue", messages)

-- The text of a file, or a clear error with the reason ("cannot read lab PATH: reason").
-- A lab or answers file over MAX_FILE_BYTES is refused before it is read.
local MAX_FILE_BYTES = 1024 * 1024
local function read_or_fail(what, path)
  local text, why = core.read_file(path, MAX_FILE_BYTES)
  if not text then error(say("cannot_read", say("what_" .. what), clean(why)), 0) end
  return text
end

-- Labs from files, beside the built-in ones: those opened by path this
-- session (--lab FILE.lua, :lab FILE.lua), then the *.lua files in each folder
-- of WARPLAB_LABS_PATH (colon-separated), then in $XDG_DATA_HOME/warplab/labs.
local opened_files = {}   -- paths, in the order they were opened

local function lab_folders()
  local folders = {}
  for folder in (os.getenv("WARPLAB_LABS_PATH") or ""):gmatch("[^:]+") do folders[#folders + 1] = folder end
  local data = core.data_path("labs")
  if data then folders[#folders + 1] = data end
  return folders
end

local function file_lab_name(path) return path:match("([^/]+)%.lua$") end

-- Every lab there is, in :labs order: {name=, path=} (path nil for a built-in
-- one). The first of a name wins; a later file of a taken name is listed in
-- `hidden` with the path that took it.
local function catalogue()
  local list, by_name, hidden = {}, {}, {}
  local function add(name, path)
    if by_name[name] then
      if path and by_name[name].path ~= path then hidden[#hidden + 1] = { path = path, by = by_name[name] } end
      return
    end
    by_name[name] = { name = name, path = path }
    list[#list + 1] = by_name[name]
  end
  for _, name in ipairs(core.lab_names()) do add(name) end
  for _, path in ipairs(opened_files) do add(file_lab_name(path), path) end
  for _, folder in ipairs(lab_folders()) do
    for _, entry in ipairs(core.folder_entries(folder)) do
      if not entry.folder and entry.name:match("^[^.].*%.lua$") then add(file_lab_name(entry.name), folder .. "/" .. entry.name) end
    end
  end
  return list, by_name, hidden
end

local function lab_names()
  local names = {}
  for i, entry in ipairs(catalogue()) do names[i] = entry.name end
  return names
end

-- The lab whose name is nearest to name (aos_soa: aos-soa; coalesce: coalescing), or nil.
local function nearest_lab(name)
  local wanted, best, best_distance = name:lower():gsub("_", "-"), nil, 4
  for _, lab in ipairs(lab_names()) do
    local distance = lab:sub(1, #wanted) == wanted and 0 or core.edit_distance(wanted, lab)
    if distance < best_distance then best, best_distance = lab, distance end
  end
  return best
end

-- A lab file, known by its real path: its progress is its own.
local function load_file(path)
  local real = core.realpath and core.realpath(path) or path
  local definition = lab_definition.load(file_lab_name(path), read_or_fail("lab", path), "file:" .. real)
  definition.path = path
  return definition
end

-- The lab called name: built in, a file path, or a lab file found by name.
local function find_lab(name)
  if type(name) ~= "string" or name:find("%z") then
    error(say("bad_name", type(name) == "string" and say("name_with_nul") or type(name)), 0)
  end
  local text = core.lab_source(name)
  if text then return lab_definition.load(name, text) end
  if name:find("%.lua$") then
    local definition = load_file(name)
    local known = false
    for _, path in ipairs(opened_files) do known = known or path == name end
    if not known then opened_files[#opened_files + 1] = name end
    return definition
  end
  local _, by_name = catalogue()
  if by_name[name] then return load_file(by_name[name].path) end
  local near = nearest_lab(name)
  local names = lab_names()
  for i, each in ipairs(names) do names[i] = visible(each) end
  error(say("unknown_lab", visible(name), near and say("did_you_mean", visible(near)) or "", table.concat(names, ", ")), 0)
end

return {
  find_lab = find_lab, load_file = load_file, catalogue = catalogue, names = lab_names,
  read_or_fail = read_or_fail, file_lab_name = file_lab_name,
}
