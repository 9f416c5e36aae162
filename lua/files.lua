-- files.lua (warplab.files): what the modules that save things share: a
-- file written or a folder made, else the error raised; the time stamp of
-- what is saved (UTC, ISO 8601); and a deep copy of a table, so that a
-- caller never holds what is saved (or the registry's own declaration).
local core = require "warplab.core"

local fmt = string.format

-- The time now, UTC, as ISO 8601: what recordings and lab progress are stamped with.
local function utc_now() return os.date("!%Y-%m-%dT%H:%M:%SZ") end

-- Writes text to path, or raises "path: why"; returns path.
local function write_or_raise(path, text)
  local ok, why = core.write_file(path, text)
  if not ok then error(fmt("%s: %s", path, tostring(why)), 0) end
  return path
end

-- Makes the folder path (and those above it), or raises why.
local function make_folder_or_raise(path)
  local made, why = core.make_folder(path)
  if not made then error(tostring(why), 0) end
end

-- A copy of t, its tables copied too.
local function copy_table(t)
  local copy = {}
  for k, v in pairs(t) do copy[k] = type(v) == "table" and copy_table(v) or v end
  return copy
end

return {
  utc_now = utc_now, write_or_raise = write_or_raise, make_folder_or_raise = make_folder_or_raise,
  copy_table = copy_table,
}
