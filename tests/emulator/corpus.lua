-- corpus.lua: the validation corpus of issue 18, kernels as students and
-- instructors write them (tests/emulator/corpus/NAME.lua, each a declaration in the
-- format the shell is to accept from users), run now on the PTX emulator
-- through compile.compile and core.emulate with every compiler here. Each
-- kernel's outputs must equal its Lua reference on the same inputs (one test
-- per kernel and compiler); where a declaration has `expect`, counts worked
-- out by hand at its defaults, every compiler's counts must equal them (one
-- test per kernel).
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]

local compilers = t.compilers()

local SEED = 18   -- issue 18: every run fills the same inputs

-- Element types: how one scalar is packed, and how many scalars an element holds.
local SCALARS = {
  float = { format = "<f", float = true }, double = { format = "<d", float = true },
  int = { format = "<i4" }, unsigned = { format = "<I4" }, short = { format = "<i2" }, ushort = { format = "<I2" },
  char = { format = "<i1" }, uchar = { format = "<I1" }, longlong = { format = "<i8" },
}
local VECTORS = { float2 = { "float", 2 }, float4 = { "float", 4 }, int2 = { "int", 2 }, int4 = { "int", 4 } }
local FIELDS = { "x", "y", "z", "w" }

local function type_of(name)
  local vector = VECTORS[name]
  local scalar = SCALARS[vector and vector[1] or name]
  if not scalar then error(string.format("unknown buffer type '%s'", tostring(name)), 0) end
  return { scalar = scalar, lanes = vector and vector[2] or 1, bytes = string.packsize(scalar.format) * (vector and vector[2] or 1),
           c_name = vector and vector[1] or name }
end

-- A scalar as the element type holds it: floats rounded, integers wrapped to their width.
local function as_stored(scalar, v)
  if scalar.float then
    if scalar.format == "<f" then return (string.unpack("<f", string.pack("<f", v))) end
    return v + 0.0
  end
  local i = math.tointeger(v)
  if not i then return nil end
  local bits = 8 * string.packsize(scalar.format)
  if bits == 64 then return i end
  i = i & ((1 << bits) - 1)
  if scalar.format:match("i") and i >= 1 << (bits - 1) then i = i - (1 << bits) end
  return i
end

-- A value given as a number or a function of the parameters.
local function evaluate(v, p)
  if type(v) == "function" then return v(p) end
  return v
end

-- The parameters at their defaults: a number is its own default, a table has one.
local function defaults(decl)
  local p = {}
  for name, v in pairs(decl.params or {}) do p[name] = type(v) == "table" and v.default or v end
  return p
end

local function dims(v, p)
  v = evaluate(v, p)
  if type(v) == "number" then return { v, 1, 1 } end
  return { evaluate(v[1], p), evaluate(v[2], p) or 1, evaluate(v[3], p) or 1 }
end

local function buffer_count(buffer, p)
  local count = buffer.count
  if type(count) == "string" then return p[count] end
  return evaluate(count, p)
end

-- Buffer contents as scalars, index 0 first: random exact floats in [-1, 1]
-- (21 bits, so that one sum of two is exact in float), zero, random integers,
-- the index, a permutation, or a function's.
local function fill_scalars(buffer, kind, count)
  local fill, n, values = buffer.fill, count * kind.lanes, {}
  if buffer.output and fill == nil then fill = "zero" end
  if fill == nil then fill = kind.scalar.float and "random" or { "int", 0, 255 } end
  if fill == "zero" then
    for k = 0, n - 1 do values[k] = 0 end
  elseif fill == "random" then
    for k = 0, n - 1 do values[k] = (math.random(0, 1 << 21) - (1 << 20)) / (1 << 20) end
  elseif fill == "index" then
    for k = 0, n - 1 do values[k] = k end
  elseif fill == "permutation" then
    for k = 0, n - 1 do values[k] = k end
    for k = n - 1, 1, -1 do
      local j = math.random(0, k)
      values[k], values[j] = values[j], values[k]
    end
  elseif type(fill) == "table" and fill[1] == "int" then
    for k = 0, n - 1 do values[k] = math.random(fill[2], fill[3]) end
  elseif type(fill) == "function" then
    for i = 0, count - 1 do
      local v = fill(i)
      for lane = 1, kind.lanes do
        values[i * kind.lanes + lane - 1] = kind.lanes == 1 and v or (v[FIELDS[lane]] or v[lane])
      end
    end
  else
    error("unknown fill " .. tostring(fill), 0)
  end
  for k = 0, n - 1 do values[k] = as_stored(kind.scalar, values[k] + (kind.scalar.float and 0.0 or 0)) end
  return values
end

local function pack_scalars(kind, values, n)
  local parts = {}
  for k = 0, n - 1 do parts[k + 1] = string.pack(kind.scalar.format, values[k]) end
  return table.concat(parts)
end

local function unpack_scalars(kind, text, n)
  local values, size = {}, string.packsize(kind.scalar.format)
  for k = 0, n - 1 do values[k] = string.unpack(kind.scalar.format, text, k * size + 1) end
  return values
end

-- Scalars as the reference sees them: b.NAME[i], a number or {x=, y=, z=, w=}.
local function elements(kind, values, count)
  local out = {}
  for i = 0, count - 1 do
    if kind.lanes == 1 then
      out[i] = values[i]
    else
      local v = {}
      for lane = 1, kind.lanes do v[FIELDS[lane]] = values[i * kind.lanes + lane - 1] end
      out[i] = v
    end
  end
  return out
end

-- The source with each constant buffer's declaration given its contents as
-- an initializer: core.emulate has no way to write the constant bank, but
-- the emulator reads a __constant__ array's initial values from the PTX.
local function with_constants(source, decl, contents)
  for name, buffer in pairs(decl.buffers) do
    if buffer.constant then
      local c = contents[name]
      local items = {}
      for k = 0, c.count * c.type.lanes - 1 do
        items[#items + 1] = c.type.scalar.float and string.format("%a", c.values[k]) or string.format("%d", c.values[k])
      end
      local found
      source, found = source:gsub("(__constant__%s+[%w_ ]-" .. name .. "%s*%[[^%]]*%])%s*;",
                                  function(declaration) return declaration .. " = {" .. table.concat(items, ", ") .. "};" end)
      if found ~= 1 then error(string.format("no declaration '__constant__ ... %s[...];' in the source", name), 0) end
    end
  end
  return source
end

-- Which of the kernel's parameters are float or double (passed as such, not as integer bits).
local function float_parameters(source, kernel)
  local list = source:match("__global__[^{;]-[%s%*]" .. kernel .. "%s*(%b())")
  local floats, position = {}, 0
  for piece in (list or "()"):sub(2, -2):gmatch("[^,]+") do
    position = position + 1
    floats[position] = (piece:find("float") or piece:find("double")) and not piece:find("%*") and true or false
  end
  return floats
end

-- A declaration's launch at its defaults: inputs filled, args in order, the buffers core.emulate takes.
local function prepare(decl)
  math.randomseed(SEED)
  local p = defaults(decl)
  local contents, names = {}, {}
  for name in pairs(decl.buffers) do names[#names + 1] = name end
  table.sort(names)   -- pairs' order varies from run to run; the fills must not
  for _, name in ipairs(names) do
    local buffer = decl.buffers[name]
    local kind = type_of(buffer.type)
    local count = buffer_count(buffer, p)
    contents[name] = { type = kind, count = count, values = fill_scalars(buffer, kind, count), buffer = buffer }
  end
  local floats = float_parameters(decl.source, decl.kernel or decl.name)
  local launch = { grid = dims(decl.grid, p), block = dims(decl.block, p), buffers = {}, args = {},
                   shared = decl.shared and evaluate(decl.shared, p) }
  local index = {}
  for position, arg in ipairs(decl.args) do
    local c = contents[arg]
    if type(arg) == "number" then
      launch.args[position] = floats[position] and arg + 0.0 or arg
    elseif c then
      if not index[arg] then
        launch.buffers[#launch.buffers + 1] = { bytes = math.max(1, c.count * c.type.bytes),
                                                fill = pack_scalars(c.type, c.values, c.count * c.type.lanes) }
        index[arg] = #launch.buffers
      end
      launch.args[position] = { buffer = index[arg] }
    elseif p[arg] ~= nil then
      launch.args[position] = floats[position] and p[arg] + 0.0 or p[arg]
    else
      error(string.format("argument %d '%s' is neither a buffer nor a parameter", position, tostring(arg)), 0)
    end
  end
  return { p = p, contents = contents, launch = launch, index = index,
           source = with_constants(decl.source, decl, contents) }
end

-- The reference's outputs: b holds every buffer's initial contents, the reference writes the outputs.
local function reference_outputs(decl, run)
  local b = {}
  for name, c in pairs(run.contents) do b[name] = elements(c.type, c.values, c.count) end
  decl.reference(run.p, b)
  return b
end

-- The first difference between the emulator's output buffers and the reference's, or nil.
local function first_difference(decl, run, results, expected)
  local tolerance = decl.tolerance or 0
  local names = {}
  for name, c in pairs(run.contents) do if c.buffer.output then names[#names + 1] = name end end
  table.sort(names)
  for _, name in ipairs(names) do
    local c = run.contents[name]
    local got = unpack_scalars(c.type, results.buffers[run.index[name]], c.count * c.type.lanes)
    for i = 0, c.count - 1 do
      for lane = 1, c.type.lanes do
        local want = expected[name][i]
        if c.type.lanes > 1 then want = want[FIELDS[lane]] or want[lane] end
        local g = got[i * c.type.lanes + lane - 1]
        local w = want ~= nil and as_stored(c.type.scalar, want) or nil
        local same = w ~= nil and (g == w or (tolerance > 0 and math.abs(g - w) <= tolerance * math.max(1, math.abs(w))))
        if not same then
          local at = c.type.lanes > 1 and string.format("%s[%d].%s", name, i, FIELDS[lane]) or string.format("%s[%d]", name, i)
          return string.format("%s = %s, the reference %s", at, tostring(g), tostring(want))
        end
      end
    end
  end
end

local function output_names(run)
  local parts = {}
  for name, c in pairs(run.contents) do
    if c.buffer.output then parts[#parts + 1] = string.format("%s: %d %s", name, c.count, c.buffer.type) end
  end
  table.sort(parts)
  return table.concat(parts, ", ")
end

local CATEGORIES = { "load", "store", "shared_load", "shared_store", "constant" }

local function counts_text(r)
  local parts = {}
  for _, category in ipairs(CATEGORIES) do
    local c = r[category]
    local first = c.requests
    local second = c.sectors or c.wavefronts or c.passes
    if first > 0 then parts[#parts + 1] = string.format("%s %d/%d", category, first, second) end
  end
  return #parts > 0 and table.concat(parts, " ") or "no memory traffic"
end

-- Where the counts differ from the hand count: "load.sectors 640, by hand 512", or nil.
-- expect[compiler] holds the categories where that compiler's code differs
-- (clang keeps a thread's own shared word in a register across a barrier).
local function counts_differ(expect, r, compiler)
  local parts = {}
  for _, category in ipairs(CATEGORIES) do
    local own = expect[compiler] and expect[compiler][category]
    for field, want in pairs(own or expect[category] or {}) do
      local got = r[category][field]
      if got ~= want then parts[#parts + 1] = string.format("%s.%s %s, by hand %d", category, field, tostring(got), want) end
    end
  end
  table.sort(parts)
  return #parts > 0 and table.concat(parts, ", ") or nil
end

local function corpus_files()
  local files = {}
  local pipe = io.popen("ls '" .. srcdir .. "/tests/emulator/corpus/'")
  for line in pipe:lines() do
    if line:match("^[%w_]+%.lua$") then files[#files + 1] = line end
  end
  pipe:close()
  table.sort(files)
  return files
end

-- The declaration in file, or nil after a failed test saying why it cannot be run.
local function load_declaration(file)
  local name = file:gsub("%.lua$", "")
  local ok, decl = pcall(dofile, srcdir .. "/tests/emulator/corpus/" .. file)
  if not ok or type(decl) ~= "table" then return t.ok(false, name .. ": the declaration loads (" .. tostring(decl) .. ")") and nil end
  if decl.name ~= name then
    return t.ok(false, string.format("%s: the declaration's name is '%s', not its file's", name, tostring(decl.name))) and nil
  end
  return decl
end

-- An error's text without the harness's own place ("corpus.lua:300: "); on one line, cut short, unless whole.
local function error_text(message, whole)
  message = tostring(message):gsub("^[^\n]-corpus%.lua:%d+: ", "")
  if whole then return message end
  message = message:gsub("%s*\n%s*", " ")
  return #message > 160 and message:sub(1, 157) .. "..." or message
end

-- The kernel compiled by compiler and emulated, its outputs checked (TODO
-- where the declaration names a known problem); its results, or nil.
local function emulated(decl, run, expected, compiler)
  local label = string.format("%s: %s", compiler, decl.name)
  local known = decl.known_problem   -- an emulator (or prelude) problem, reported as TODO until it is mended
  if type(known) == "table" then known = known[compiler] end
  local done, results = pcall(function()
    local ptx = require("warplab.compile").compile(run.source, { compiler = compiler, name = decl.name .. ".cu" }).ptx
    return core.emulate(ptx, decl.kernel or decl.name, run.launch)
  end)
  if not done and known then
    t.todo(false, label .. ": compiles and runs on the emulator (" .. error_text(results) .. ")", known)
  elseif not done then
    t.ok(false, label .. ": compiles and runs on the emulator")
    print("#   " .. error_text(results, true):gsub("\n", "\n#   "))
  else
    local difference = first_difference(decl, run, results, expected)
    local text = string.format("%s: outputs as the reference's (%s; %s)%s", label, output_names(run), counts_text(results),
                               difference and ": " .. difference or "")
    if known then t.todo(difference == nil, text, known) else t.ok(difference == nil, text) end
    return results
  end
end

-- The hand counts against every compiler's counts, one test; a note where the compilers' counts differ.
local function check_counts(decl, counts)
  if #counts == 2 and counts_text(counts[1].results) ~= counts_text(counts[2].results) then
    print(string.format("# %s: the compilers' counts differ: %s %s, %s %s", decl.name, counts[1].compiler,
                        counts_text(counts[1].results), counts[2].compiler, counts_text(counts[2].results)))
  end
  if not decl.expect then return end
  local wrong = {}
  for _, c in ipairs(counts) do
    local differ = counts_differ(decl.expect, c.results, c.compiler)
    if differ then wrong[#wrong + 1] = c.compiler .. ": " .. differ end
  end
  t.ok(#counts > 0 and #wrong == 0, string.format("%s: counts as by hand at the defaults (%s)", decl.name,
       #wrong > 0 and table.concat(wrong, "; ") or #counts > 0 and counts_text(counts[1].results) or "nothing ran"))
end

-- A declaration with `printed` (a function of its params): what its printf printed, one test per compiler.
local function check_printed(decl, run, results, compiler)
  local want = decl.printed(run.p)
  if not t.ok(results.printf == want, string.format("%s: %s: printf printed what CUDA prints", compiler, decl.name)) then
    print("#   got:      " .. tostring(results.printf):gsub("\n", "\\n"))
    print("#   expected: " .. want:gsub("\n", "\\n"))
  end
end

-- One declaration: emulated with each compiler, the outputs checked; then its hand counts.
local function check(file)
  local decl = load_declaration(file)
  if not decl then return end
  local prepared, run = pcall(prepare, decl)
  if not prepared then return t.ok(false, decl.name .. ": its launch is prepared (" .. tostring(run) .. ")") end
  local expected = reference_outputs(decl, run)
  local counts = {}
  for _, compiler in ipairs(compilers) do
    local results = emulated(decl, run, expected, compiler)
    if results then counts[#counts + 1] = { compiler = compiler, results = results } end
    if results and decl.printed then check_printed(decl, run, results, compiler) end
  end
  check_counts(decl, counts)
end

local started = os.time()
local files = corpus_files()
t.ok(#files >= 30, string.format("the corpus has at least 30 kernels (%d)", #files))
for _, file in ipairs(files) do check(file) end
print(string.format("# %d kernels, %d compilers, %d s", #files, #compilers, os.time() - started))
t.done()
