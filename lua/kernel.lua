-- kernel.lua: kernel{...}, a kernel written in CUDA C while the shell runs,
-- declared with its params, buffers, arguments and launch shape; compiled
-- (compile.compile: NVRTC, or clang) and then a kernel like the built-in ones:
-- launch, sweep, compare, info (with its source), completion. Its model is
-- the emulator, which runs its own PTX (docs/model.md); on a GPU it is also
-- compiled for that GPU's own architecture and measured there as the
-- built-ins are. Sizes may be numbers, param names or functions of the
-- params, worked out at each launch.
local core = require "warplab.core"
local u = require "warplab.text"
local families = require "warplab.families"
local compile = require "warplab.compile"
local progress = require "warplab.progress"

local kernel = {}

local messages = {
  bad_spec = { en = "bad argument #1 to 'kernel' (a table {name=, source= or file=, params=, buffers=, args=, grid=, block=} expected, got %s)",
               zh = "bad argument #1 to 'kernel' (需要表 {name=, source= 或 file=, params=, buffers=, args=, grid=, block=}，得到 %s)" },
  bad_field = { en = "bad argument #1 to 'kernel' (%s must be %s; got %s)", zh = "bad argument #1 to 'kernel' (%s 必须是%s；得到 %s)" },
  built_in = { en = "bad argument #1 to 'kernel' (name '%s' is a built-in kernel's; choose another)",
               zh = "bad argument #1 to 'kernel' (名字 '%s' 属于内置核函数；请换一个)" },
  no_file = { en = "bad argument #1 to 'kernel' (file %s cannot be read: %s)", zh = "bad argument #1 to 'kernel' (无法读取文件 %s：%s)" },
  no_entry = { en = "kernel '%s': its source defines no __global__ function '%s' (it defines: %s)",
               zh = "核函数 '%s'：源代码中没有 __global__ 函数 '%s'（它定义了：%s）" },
  replaced = { en = "kernel '%s' replaced by the new declaration", zh = "核函数 '%s' 已被新的声明替换" },
  summary = { en = "a kernel declared in Lua", zh = "在 Lua 中声明的核函数" },
  teaches = { en = "what your own kernel's accesses cost", zh = "你自己的核函数的访问代价" },
  param_doc = { en = "a parameter of kernel %s", zh = "核函数 %s 的参数" },
  not_declared = { en = "%s is not a param or buffer of kernel '%s' (params: %s; buffers: %s)",
                   zh = "%s 不是核函数 '%s' 的参数或缓冲区（参数：%s；缓冲区：%s）" },
  constant_arg = { en = "kernel '%s': buffers.%s is constant: the kernel reads its __constant__ variable by name, so it is not an argument",
                   zh = "核函数 '%s'：buffers.%s 是常量缓冲区：核函数按名字读取它的 __constant__ 变量，所以它不是参数" },
  edit_what = { en = "edit() needs a kernel's name: edit(\"NAME\"), or :edit in a lab step that has a kernel to write",
                zh = "edit() 需要核函数名：edit(\"名字\")，或在有核函数要写的实验步骤中使用 :edit" },
  bad_edit_name = { en = "bad argument #1 to 'edit' (a kernel's name expected, got %s)", zh = "bad argument #1 to 'edit' (需要核函数名，得到 %s)" },
  edit_built_in = { en = "'%s' is a built-in kernel: info(\"%s\").source shows its source; declare one of your own with kernel{}",
                    zh = "'%s' 是内置核函数：info(\"%s\").source 显示它的源代码；用 kernel{} 声明你自己的核函数" },
  edit_unknown = { en = "no kernel %s was declared with kernel{} in this session", zh = "本次会话中没有用 kernel{} 声明过核函数 %s" },
  no_home = { en = "there is no home folder to keep the source in (set HOME or XDG_DATA_HOME)",
              zh = "没有主目录来保存源代码（请设置 HOME 或 XDG_DATA_HOME）" },
  no_editor = { en = "the editor '%s' could not be started: %s (set VISUAL or EDITOR)", zh = "无法启动编辑器 '%s'：%s（请设置 VISUAL 或 EDITOR）" },
  editor_failed = { en = "the editor '%s' ended with status %s: %s was not compiled", zh = "编辑器 '%s' 以状态 %s 结束：没有编译 %s" },
  edit_failed = { en = "kernel '%s' (%s) was not declared again:\n%s", zh = "核函数 '%s'（%s）没有重新声明：\n%s" },
  edited = { en = "kernel '%s' compiled and declared from %s", zh = "核函数 '%s' 已从 %s 编译并声明" },
  declared_line = { en = "kernel '%s' declared (params: %s; buffers: %s): launch(\"%s\") runs it",
                    zh = "核函数 '%s' 已声明（参数：%s；缓冲区：%s）：launch(\"%s\") 运行它" },
  none = { en = "none", zh = "无" },
  not_kept = { en = "your source of kernel '%s' was not saved to %s (%s); what was saved before is kept",
               zh = "核函数 '%s' 的源代码没有保存到 %s（%s）；之前保存的仍然保留" },
  no_temporary = { en = "there is no folder for the editor's file (%s)", zh = "没有可放编辑器文件的文件夹（%s）" },
  in_memory = { en = "(kept in memory, as this run's progress: a batch run keeps both with --save)",
                zh = "（与本次运行的进度一样只保存在内存中：批量运行加 --save 才会保留两者）" },
  sass_no_nvrtc = { en = "no NVRTC here to make the machine code", zh = "这里没有 NVRTC 来生成机器码" },
  not_run = { en = "kernel '%s' is not run: its source (%s) does not compile: %s. Fix it with :edit; the last version that compiled is not used",
              zh = "核函数 '%s' 没有运行：它的源代码（%s）无法编译：%s。请用 :edit 修改；上一个能编译的版本不会被使用" },
  size_not_integer = { en = "%s gave %s, not an integer", zh = "%s 给出了 %s，不是整数" },
  dims_count = { en = "%s gave a list of %d, not {x, y[, z]}", zh = "%s 给出了 %d 个值的列表，不是 {x, y[, z]}" },
  dims_not_list = { en = "%s gave %s, not an integer or {x, y[, z]} of integers", zh = "%s 给出了 %s，不是整数，也不是由整数组成的 {x, y[, z]}" },
  printf_emulated = { en = "kernel '%s' calls printf: its launches run on the emulator, which shows printf's output once a launch (on the GPU it would print again at every timing sample and counter pass)",
                      zh = "核函数 '%s' 调用了 printf：它的启动在模拟器上运行，每次启动显示一遍 printf 的输出（在 GPU 上，每次计时采样和计数器采集都会再打印一遍）" },
  students_name = { en = "'%s' is the name of a kernel you declared: yours stays and the lab's is not declared (give yours another name to have the lab's)",
                    zh = "'%s' 是你自己声明的核函数的名字：你的核函数保留，实验的同名核函数没有声明（给你的核函数换个名字，就能得到实验的核函数）" },
}
local say = u.messages("kernel", messages)

-- Element types a buffer may hold: a scalar's bytes, how many scalars an
-- element holds (a vector's .x .y .z .w), and whether they are floats or signed.
local TYPES = {
  float = { 4, 1, "float" }, double = { 8, 1, "float" }, float2 = { 4, 2, "float" }, float4 = { 4, 4, "float" },
  double2 = { 8, 2, "float" }, int = { 4, 1, "signed" }, unsigned = { 4, 1 }, short = { 2, 1, "signed" },
  ["unsigned short"] = { 2, 1 }, char = { 1, 1, "signed" }, ["unsigned char"] = { 1, 1 }, ["long long"] = { 8, 1, "signed" },
  ["unsigned long long"] = { 8, 1 }, int2 = { 4, 2, "signed" }, int4 = { 4, 4, "signed" }, uint2 = { 4, 2 }, uint4 = { 4, 4 },
}
-- The short names of the unsigned and long types, as OpenCL and many codebases spell them.
for short, long in pairs({ uchar = "unsigned char", ushort = "unsigned short", uint = "unsigned", longlong = "long long",
                           ulonglong = "unsigned long long" }) do
  TYPES[short] = TYPES[long]
end
local FILLS = { random = true, zero = true, index = true, permutation = true, sorted = true }
local INT_MOST = math.maxinteger >> 2

-- Mistakes in a declaration are one line, without a place in this file.
local function bad(field, expected, got) error(say("bad_field", field, expected, u.quote(got)), 0) end

local function identifier(text) return type(text) == "string" and text:match("^[%a_][%w_]*$") ~= nil end

-- A declaration's tables are read raw (next, rawget, rawlen): a metatable of theirs runs no code here.
local function field(t, key) return type(t) == "table" and rawget(t, key) or nil end

-- The names of a table of NAME = value, sorted; each must be an identifier (what says where).
local function names_of(t, what)
  local keys = {}
  for k in next, t do
    if not identifier(k) then bad(what .. "' names", "identifiers", k) end
    keys[#keys + 1] = k
  end
  table.sort(keys)
  return keys
end

-- The items 1 .. rawlen of a list.
local function items(list)
  local out = {}
  for i = 1, type(list) == "table" and rawlen(list) or 0 do out[i] = rawget(list, i) end
  return out
end

-- params = {NAME = default | {default=, min=, max=, doc=, doc_zh=}}: a list, n first, then by name.
-- A float default (0.5, 2.0) makes a number param, passed as the kernel's float or double.
local function read_params(spec)
  local params, list = field(spec, "params") or {}, {}
  if type(params) ~= "table" then bad("params", "{NAME = number or {default=, min=, max=}}", params) end
  for _, name in ipairs(names_of(params, "params")) do
    local p = rawget(params, name)
    if math.type(p) then p = { default = p } end
    local default, min, max, doc, doc_zh = field(p, "default"), field(p, "min"), field(p, "max"), field(p, "doc"), field(p, "doc_zh")
    local float = math.type(default) == "float"
    if not math.type(default) then bad("params." .. name, "a number or {default = number, min=, max=}", p) end
    min = min or (float and -math.huge or math.min(default, 0))
    max = max or (float and math.huge or math.max(default, INT_MOST))
    local kind = float and "number" or "integer"
    if (float and not (math.type(min) and math.type(max))) or (not float and (math.type(min) ~= "integer" or math.type(max) ~= "integer"))
       or min > default or default > max then
      bad("params." .. name, "{default=, min=, max=} with min <= default <= max, each an " .. kind, p)
    end
    local item = { name = name, default = default, min = min, max = max, float = float and 1 or 0 }
    item.doc = type(doc) == "string" and doc or messages.param_doc.en:format(spec.name)   -- both, as a built-in's: info shows the session's
    item.doc_zh = type(doc_zh) == "string" and doc_zh or messages.param_doc.zh:format(spec.name)
    list[#list + 1] = item
  end
  table.sort(list, function(a, b) return (a.name == "n") ~= (b.name == "n") and a.name == "n" or a.name < b.name end)
  return list
end

-- buffers = {NAME = {type=, count=, output=, fill=}}: in the order args name them, then by name.
local function read_buffers(spec)
  local buffers, list, seen = field(spec, "buffers"), {}, {}
  if type(buffers) ~= "table" or next(buffers) == nil then bad("buffers", "{NAME = {type=, count=}, ...}", buffers) end
  local type_names, order = {}, {}   -- order: as args name them, then the rest by name
  for name in next, TYPES do type_names[#type_names + 1] = name end
  table.sort(type_names)
  local names = names_of(buffers, "buffers")
  for _, arg in ipairs(items(field(spec, "args"))) do
    if type(arg) == "string" and rawget(buffers, arg) ~= nil and not seen[arg] then order[#order + 1], seen[arg] = arg, true end
  end
  for _, name in ipairs(names) do if not seen[name] then order[#order + 1] = name end end
  for _, name in ipairs(order) do
    local b = rawget(buffers, name)
    local kind = field(b, "type")
    if not TYPES[kind] then bad("buffers." .. name .. ".type", "one of " .. table.concat(type_names, ", "), kind) end
    local scalar, width, sort = table.unpack(TYPES[kind])
    local item = { name = name, bytes = scalar * width, scalar_bytes = scalar, width = width, is_float = sort == "float" and 1 or 0,
                   is_signed = sort == "signed" and 1 or 0, output = field(b, "output") and true or false,
                   count = field(b, "count"), constant = field(b, "constant") and 1 or 0 }
    if item.constant == 1 and item.output then bad("buffers." .. name .. ".constant", "an input's (a kernel cannot write __constant__ memory)", true) end
    if not item.output then item.fill = "random" end   -- an output is poisoned unless it says how it starts
    local fill = field(b, "fill")
    local low, high = field(fill, 2), field(fill, 3)
    if field(fill, 1) == "int" and math.type(low) == "integer" and math.type(high) == "integer" and low <= high then
      item.fill, item.low, item.high = "integers", low, high
    elseif field(fill, 1) == "window" and math.type(low) == "integer" and low >= 1 and high == nil then
      item.fill, item.low = "window", low
    elseif type(fill) == "function" then
      item.fill, item.fill_function = "function", fill
    elseif fill ~= nil and not (type(fill) == "string" and FILLS[fill]) then
      bad("buffers." .. name .. ".fill", "\"random\", \"zero\", \"index\", \"permutation\", \"sorted\", " ..
          "{\"int\", low, high}, {\"window\", elements} or a function of the index", fill)
    elseif fill then
      item.fill = fill
    end
    list[#list + 1] = item
  end
  return list
end

-- The value a size form gives for params p: a number, a param's name, or a function of p.
local function size_of(form, p, what)
  local value = form
  if type(form) == "string" then value = p[form] elseif type(form) == "function" then value = form(p) end
  if math.type(value) ~= "integer" then error(say("size_not_integer", what, u.quote(value)), 0) end
  return value
end

-- A dims form (number, name, function, or {x, y[, z]} of those) as a check that it is one.
local function check_dims(form, what, names)
  local function check_one(item)
    if not (math.type(item) == "integer" or type(item) == "function" or (type(item) == "string" and names[item])) then
      bad(what, "an integer, a param's name, a function of the params, or {x, y[, z]} of those", item)
    end
  end
  if type(form) == "table" then
    local list = items(form)
    if #list < 1 or #list > 3 then bad(what, "{x, y[, z]}", form) end
    for _, item in ipairs(list) do check_one(item) end
  else
    check_one(form)
  end
end

-- The {x, y, z} a dims form gives for params p; a function may give an
-- integer or {x, y[, z]}, named "grid(p)[2]" in what is wrong with it.
local function dims_of(form, p, what)
  if type(form) == "function" then
    local value = form(p)
    if type(value) == "table" then
      local list = items(value)
      if #list < 1 or #list > 3 then error(say("dims_count", what .. "(p)", #list), 0) end
      form, what = list, what .. "(p)"
    elseif math.type(value) ~= "integer" then
      error(say("dims_not_list", what .. "(p)", u.quote(value)), 0)
    else
      form = value
    end
  end
  local list = type(form) == "table" and items(form) or { form }
  return { size_of(list[1], p, what .. "[1]"), list[2] and size_of(list[2], p, what .. "[2]") or 1, list[3] and size_of(list[3], p, what .. "[3]") or 1 }
end

-- The function of the params that gives every size a launch needs.
-- The SASS listing of the sm_90 machine code an H100 or H200 runs, for the
-- SASS engine, or nil and why there is none; worked out at the kernel's
-- first launch on such a GPU (or its profile), not at its declaration.
local function sass_listing(source, name)
  if not core.nvrtc_version() then return nil, say("sass_no_nvrtc") end
  local ok, code = pcall(compile.compile, source, { name = name .. ".cu", arch = "sm_90", binary = true })
  if not ok then return nil, tostring(code) end
  return compile.listing(code.cubin)
end

local function sizes_function(spec, buffers)
  return function(p)
    local counts = {}
    for i, b in ipairs(buffers) do counts[i] = size_of(b.count, p, "buffers." .. b.name .. ".count") end
    return { counts = counts, grid = dims_of(spec.grid, p, "grid"), block = dims_of(spec.block, p, "block"),
             shared = spec.shared ~= nil and size_of(spec.shared, p, "shared") or 0 }
  end
end

-- args: buffer names, param names, or integers, in the kernel's order.
local function read_args(spec, params, buffers)
  local by_name, param_names, buffer_names, list = {}, {}, {}, {}
  for i, p in ipairs(params) do by_name[p.name] = { param = i } param_names[#param_names + 1] = p.name end
  for i, b in ipairs(buffers) do
    by_name[b.name] = { buffer = i, constant = b.constant == 1 or nil }
    buffer_names[#buffer_names + 1] = b.name
  end
  local declared_args = field(spec, "args")
  if type(declared_args) ~= "table" then bad("args", "a list of the kernel's arguments (buffer and param names, integers)", declared_args) end
  for i, arg in ipairs(items(declared_args)) do
    if math.type(arg) == "integer" then
      list[i] = { value = arg }
    elseif type(arg) == "string" and by_name[arg] and by_name[arg].constant then
      error(say("constant_arg", spec.name, arg), 0)
    elseif type(arg) == "string" and by_name[arg] then
      list[i] = by_name[arg]
    else
      error(say("not_declared", u.quote(arg), spec.name, table.concat(param_names, ", "), table.concat(buffer_names, ", ")), 0)
    end
  end
  return list
end

-- What the session's GPU loads: NVRTC's machine code for its architecture
-- ("9.0" is sm_90), or, without NVRTC, the PTX, which its driver compiles;
-- nil on the model, and for a kernel that calls printf (vprintf in its
-- PTX): the GPU process would print at every sample and counter pass, into
-- its standard output, which is its channel to the shell. It runs on the
-- emulator instead, which shows the output once (docs/shell.md).
local function gpu_image(source, name, compiled)
  local d = core.globals.device()
  if d.backend ~= "gpu" then return nil end
  if compiled.ptx:find("vprintf", 1, true) then
    print(say("printf_emulated", name))
    return nil
  end
  if not core.nvrtc_version() then return compiled.ptx end
  return compile.compile(source, { name = name .. ".cu", arch = "sm_" .. d.compute_capability:gsub("%.", ""), binary = true }).cubin
end

local declared = {}   -- the names of kernels declared in this session

local function text_or(text, fallback) return type(text) == "string" and text or fallback end

local FIELDS = { "name", "source", "file", "entry", "params", "buffers", "args", "grid", "block", "shared", "reference",
                 "summary", "summary_zh", "teaches", "teaches_zh" }
kernel.declaration_fields = FIELDS   -- what a lab's kernel may hold, for the lab checker (lab_definition.lua)

local declarations = {}   -- each declared kernel's fields as given, source read: what :edit declares again
local file_of = {}        -- where :edit keeps a kernel's source, by name (a lab's kernels: in the lab's folder)
local students = {}       -- the names of the kernels the student declared (kernel{}): theirs, never a lab's
-- Each declared kernel's compiled source: {symbol = its entry as the
-- machine code names it, at = when (os.time()), resources = {[arch] =
-- {registers, shared} or false} as kernel.kernel_resources found them}; a new
-- declaration starts a new one.
local compiled_of = {}

-- Declares spec (its fields read raw), quietly when it replaces one by :edit.
local function declare(spec, quiet)
  kernel.note_sources()   -- what the launches so far ran, before a kernel changes
  local name = spec.name
  if type(name) ~= "string" or not name:match("^[a-z_][a-z0-9_]*$") or #name > 40 then
    bad("name", "lowercase letters, digits and _ (at most 40)", name)
  end
  if not declared[name] then
    for _, k in ipairs(families.kernels()) do if k.name == name then error(say("built_in", name), 0) end end
  end
  local source = spec.source
  if spec.file ~= nil then
    if type(spec.file) ~= "string" then bad("file", "a file name", spec.file) end
    local text, why = core.read_file(spec.file)
    if not text then error(say("no_file", spec.file, tostring(why)), 0) end
    source = text
  end
  if type(source) ~= "string" then bad("source", "the kernel's CUDA C (or give file=)", source) end
  local entry = spec.entry or name
  if not identifier(entry) then bad("entry", "the __global__ function's name", entry) end
  local params, buffers = read_params(spec), read_buffers(spec)
  local names = {}
  for _, p in ipairs(params) do names[p.name] = true end
  for _, b in ipairs(buffers) do check_dims(b.count, "buffers." .. b.name .. ".count", names) end
  check_dims(spec.grid, "grid", names)
  check_dims(spec.block, "block", names)
  if spec.shared ~= nil then check_dims(spec.shared, "shared", names) end
  local args = read_args(spec, params, buffers)
  if spec.reference ~= nil and type(spec.reference) ~= "function" then
    bad("reference", "a function(p, b) that fills b's outputs from its inputs, b.NAME[i] from 0", spec.reference)
  end
  local compiled = compile.compile(source, { name = name .. ".cu" })
  local entries, symbol = {}, nil
  for found in compiled.ptx:gmatch("%.entry%s+([%w_$]+)") do entries[#entries + 1] = found end
  for _, found in ipairs(entries) do
    if found == entry or found:sub(1, #entry + 2 + #tostring(#entry)) == "_Z" .. #entry .. entry then symbol = symbol or found end
  end
  if not symbol then error(say("no_entry", name, entry, #entries > 0 and table.concat(entries, ", ") or "none"), 0) end
  local ok, why = core.declare_kernel({
    name = name, entry = entry, symbol = symbol, source = source, ptx = compiled.ptx, image = gpu_image(source, name, compiled),
    summary = text_or(spec.summary, messages.summary.en), summary_zh = text_or(spec.summary_zh, messages.summary.zh),
    teaches = text_or(spec.teaches, messages.teaches.en), teaches_zh = text_or(spec.teaches_zh, messages.teaches.zh),
    params = params, buffers = buffers, args = args, sizes = sizes_function(spec, buffers), reference = spec.reference,
    listing = function() return sass_listing(source, name) end,
  })
  if not ok then error(why, 0) end
  if declared[name] and not quiet then print(say("replaced", name)) end
  declared[name], compiled_of[name] = true, { symbol = symbol, at = os.time(), resources = {} }
  kernel.not_run[name] = nil
  spec.source, spec.file = source, nil
  declarations[name] = spec
  return name
end

local function fields_of(declaration)
  local spec = {}
  for _, key in ipairs(FIELDS) do spec[key] = rawget(declaration, key) end
  return spec
end

local declared_at_prompt   -- the name kernel{} returned in the chunk the prompt runs now

function kernel.kernel(declaration)
  if type(declaration) ~= "table" then error(say("bad_spec", u.quote(declaration)), 2) end
  local name = declare(fields_of(declaration))
  students[name], file_of[name] = true, nil
  declared_at_prompt = name
  return name
end

-- The line the prompt shows for a kernel{} typed there, in place of the
-- name it returns: what was declared, and how to run it.
local function declared_line(name)
  local spec = declarations[name]
  local params, buffers = {}, {}
  for key in pairs(spec.params or {}) do params[#params + 1] = key end
  for key in pairs(spec.buffers or {}) do buffers[#buffers + 1] = key end
  table.sort(params); table.sort(buffers)
  local function listed(list) return #list > 0 and table.concat(list, ", ") or say("none") end
  return say("declared_line", name, listed(params), listed(buffers), name)
end

-- A chunk at the prompt is done: what it declared is no longer the one to show.
function kernel.chunk_done()
  declared_at_prompt = nil
end

-- Shows the line of a kernel{} the chunk typed at the prompt returned, in
-- place of its name: true when it did (the prompt prints the values else).
function kernel.print_values(...)
  local name = declared_at_prompt
  declared_at_prompt = nil
  if select("#", ...) == 1 and name and (...) == name and declarations[name] then
    print(declared_line(name))
    return true
  end
  return false
end

-- kernel.kernel_is_students(name): whether the student declared that kernel
-- with kernel{} (a lab may neither read nor replace it).
function kernel.kernel_is_students(name)
  return students[name] == true
end

-- kernel.kernel_source(name): the source a declared kernel runs now, or nil.
function kernel.kernel_source(name)
  return declarations[name] and declarations[name].source
end

-- kernel.kernel_resources(name, arch): the registers a thread of a declared
-- kernel uses on arch ("sm_90") and its static shared bytes, from NVRTC's
-- machine code for arch (the occupancy the time model takes); nil where
-- there is no NVRTC, or the kernel does not compile for arch.
-- Each launch asks: the CUBIN is read once per declaration and architecture.
function kernel.kernel_resources(name, arch)
  local spec, compiled = declarations[name], compiled_of[name]
  if not (spec and compiled and core.nvrtc_version()) then return nil end
  local found = compiled.resources[arch]
  if found == nil then
    local ok, code = pcall(compile.compile, spec.source, { name = name .. ".cu", arch = arch, binary = true })
    local registers, shared
    if ok then registers, shared = compile.cubin_resources(code.cubin, compiled.symbol) end
    found = registers and { registers, shared } or false   -- false: asked, and the machine code does not say
    compiled.resources[arch] = found
  end
  if found then return found[1], found[2] end
  return nil
end

-- The source each result of a declared kernel ran with ({source=,
-- compiled=}), noted when the chunk that launched it ends and before any
-- kernel is declared again.
local ran_with = setmetatable({}, { __mode = "k" })

-- kernel.note_sources(): notes the sources of the latest launches not yet noted.
function kernel.note_sources()
  local function note(r)
    if r ~= nil and ran_with[r] == nil then
      local source = kernel.kernel_source(r.kernel)
      ran_with[r] = source and { source = source, compiled = compiled_of[r.kernel].at } or false
    end
  end
  note(core.last_result())
  for _, r in ipairs(core.last_results() or {}) do note(r) end
end

-- kernel.source_ran(r): the source a declared kernel's result r ran with, or nil (a built-in's).
function kernel.source_ran(r)
  kernel.note_sources()
  return ran_with[r] and ran_with[r].source or nil
end

-- kernel.version_ran(r): the version of its source r ran (8 hex digits of
-- its hash) and when it was compiled; nil for a built-in kernel's.
function kernel.version_ran(r)
  local source = kernel.source_ran(r)
  if not source then return nil end
  return core.hash(source):sub(1, 8), ran_with[r].compiled
end

-- kernel.declared_kernels(): the names of the kernels declared in this session, sorted (what :edit takes).
function kernel.declared_kernels()
  local names = {}
  for name in next, declarations do names[#names + 1] = name end
  table.sort(names)
  return names
end

---------------------------------------------------------------------------
-- Where the student's sources are kept: under $XDG_DATA_HOME/warplab, in
-- students/ID/ for a student with an ID (--student, $WARPLAB_STUDENT), so
-- that students sharing one account never run or submit each other's; and,
-- while progress lives in memory (a batch run without --save), in memory
-- alone: such a run writes no file of the student's.
---------------------------------------------------------------------------

local in_memory = {}   -- a relative name's source, while progress lives in memory

-- relative (kernels/...) as it is kept for the student doing the labs.
local function students_own(relative)
  local student = os.getenv("WARPLAB_STUDENT") or ""
  return student ~= "" and ("students/" .. student .. "/" .. relative) or relative
end

local function memory_only() return progress.in_memory() end

-- The student's kept source under relative, or nil; and where it is kept (nil in memory).
local function read_kept(relative)
  local own = students_own(relative)
  if memory_only() then return in_memory[own], nil end
  local path = core.data_path(own)
  return path and core.read_file(path), path
end

-- Keeps text as the student's source under relative (name: the kernel's,
-- for the error); where it was kept (nil in memory). A failed save raises,
-- and the file holds what it held.
local function write_kept(relative, text, name)
  local own = students_own(relative)
  if memory_only() then
    in_memory[own] = text
    return nil
  end
  local path = core.data_path(own)
  if not path then error(say("no_home"), 0) end
  local ok, why = core.write_file(path, text)
  if not ok then error(say("not_kept", name, path, tostring(why)), 0) end
  return path
end

-- Forgets the student's kept source under relative; true when there was one,
-- or nil and why it could not be removed.
local function remove_kept(relative)
  local own = students_own(relative)
  if memory_only() then
    local had = in_memory[own] ~= nil
    in_memory[own] = nil
    return had
  end
  local path = core.data_path(own)
  if not (path and core.read_file(path)) then return false end
  local ok, why = os.remove(path)
  if not ok then return nil, why end
  return true
end

-- The editor's words, $VISUAL or $EDITOR split at blanks ("code --wait"), or vi; no shell runs them.
local function editor_words()
  local command = os.getenv("VISUAL")
  if not command or command == "" then command = os.getenv("EDITOR") end
  if not command or command == "" then command = "vi" end
  local words = {}
  for word in command:gmatch("%S+") do words[#words + 1] = word end
  return words, command
end

-- Where the student's source of name is kept, relative to the data folder.
local function kept_name(name) return file_of[name] or ("kernels/" .. name .. ".cu") end

-- The file an editor opens for name: the kept one, written with the source
-- declared now when there is none yet; in memory, a temporary file of it.
local function edit_file(name)
  local relative = kept_name(name)
  local text, path = read_kept(relative)
  if memory_only() then
    local folder, why = core.temporary_folder()
    if not folder then error(say("no_temporary", tostring(why)), 0) end
    path = folder .. "/" .. name .. ".cu"
    local ok, not_written = core.write_file(path, text or declarations[name].source)
    if not ok then error(say("not_kept", name, path, tostring(not_written)), 0) end
    return path, folder
  end
  if not text then path = write_kept(relative, declarations[name].source, name) end
  return path
end

-- The source the student gave for name: from a file (from), or from an editor. And the file it came from.
local function edited_source(name, from)
  if from ~= nil then
    local text, why = type(from) == "string" and core.read_file(from)
    if not text then error(say("no_file", u.quote(from), tostring(why)), 0) end
    return text, from
  end
  local path, temporary = edit_file(name)
  local words, command = editor_words()
  words[#words + 1] = path
  local status, why = core.spawn(words)
  local text, unread = nil, nil
  if status == 0 then text, unread = core.read_file(path) end
  if temporary then os.remove(path); os.remove(temporary) end
  if status == nil then error(say("no_editor", command, tostring(why)), 0) end
  if status ~= 0 then error(say("editor_failed", command, tostring(status), path), 0) end
  if not text then error(say("no_file", u.quote(path), tostring(unread)), 0) end
  return text, path
end

-- Kernels whose latest source does not compile, by name: why they are not
-- run (launch refuses them, shell/api/launch.c), until a source of theirs does.
kernel.not_run = {}   -- why a kernel cannot run, by name (launch.c reads it as core.not_run)

-- The first line of a compiler's messages that names an error (else the first line).
local function first_error(why)
  local text = tostring(why)
  return text:match("[^\n]*[Ee]rror[^\n]*") or text:match("[^\n]*")
end

local function mark_not_compiling(name, where, why)
  kernel.not_run[name] = say("not_run", name, where, first_error(why):gsub("^%s+", ""))
end

-- edit([name [, file]]): the kernel's source opened in $VISUAL or $EDITOR (in
-- a file under $XDG_DATA_HOME/warplab/kernels/, or students/ID/kernels/ for
-- a student with an ID; a temporary one in a batch run without --save),
-- then compiled and declared
-- again from what was saved; with file, its text instead of an editor's.
-- Without a name, the open lab step's kernel.
function kernel.edit(name, from)
  name = name or require("warplab.labs").step_kernel()   -- labs requires this module
  if name == nil then error(say("edit_what"), 2) end
  if type(name) ~= "string" then error(say("bad_edit_name", u.quote(name)), 2) end
  if not declarations[name] then
    for _, k in ipairs(families.kernels()) do if k.name == name then error(say("edit_built_in", name, name), 0) end end
    error(say("edit_unknown", u.quote(name)), 0)
  end
  local text, came_from = edited_source(name, from)
  local kept = write_kept(kept_name(name), text, name) or came_from .. " " .. say("in_memory")
  local spec = {}
  for key, value in pairs(declarations[name]) do spec[key] = value end
  spec.source = text
  local ok, why = pcall(declare, spec, true)
  if not ok then
    mark_not_compiling(name, kept, why)
    error(say("edit_failed", name, kept, tostring(why)), 0)
  end
  print(say("edited", name, kept))
  return name
end

-- A lab's declaration with each of its functions (reference, sizes, fills)
-- run under the sandbox's guard whenever the shell calls it: lab code stays
-- lab code when a launch calls it, long after the lab's body ran.
local function guarded_copy(value, seen)
  if type(value) == "function" then
    local fn = value
    return function(...) return core.sandbox_call(fn, ...) end
  end
  if type(value) ~= "table" then return value end
  if seen[value] then return seen[value] end
  local copy = {}
  seen[value] = copy
  for k, v in next, value do copy[k] = guarded_copy(v, seen) end
  return copy
end

-- The folder of a lab's kernels under $XDG_DATA_HOME/warplab: a built-in
-- lab's by its id; a lab file's by a hash of its whole id (its real path), so
-- /x/a/b.lua and /x/a_b.lua keep their students' sources apart.
local function lab_folder(lab_id)
  if lab_id:match("^[%w_%-]+$") then return "kernels/" .. lab_id end
  local hash = require("warplab.lab_sandbox").hash   -- lab_sandbox requires this module
  return string.format("kernels/%s-%016x", (lab_id:match("([^/]*)$"):gsub("[^%w_%-]", "_")), hash({ lab_id }))
end

-- The student's own source of a lab's kernel, from the lab's folder, or
-- (written by an older warplab, for an account's one student) from the
-- folder named by the id alone.
local function saved_source(lab_id, name)
  local text, path = read_kept(file_of[name])
  if text or memory_only() or lab_id:match("^[%w_%-]+$") or (os.getenv("WARPLAB_STUDENT") or "") ~= "" then
    return text, path or say("in_memory")
  end
  local kernels_folder = core.data_path("kernels")   -- data_path makes the folders it names: not the old one's
  local legacy = kernels_folder and kernels_folder .. "/" .. lab_id:gsub("[^%w_%-]", "_") .. "/" .. name .. ".cu"
  return legacy and core.read_file(legacy), legacy
end

-- Declares a lab step's kernel (lab_id: the lab's, for its folder). from:
-- nil (the student's own file when there is one, else the skeleton),
-- "skeleton" (the lab as written, for its claims), "solution" (the lab's
-- own, for --check-lab) or {source = text} (a submitted one, for --grade).
-- nil, or the compile error of the student's file (the kernel is then left
-- as it was).
function kernel.declare_lab_kernel(declaration, lab_id, from)
  local spec = fields_of(guarded_copy(declaration, {}))
  spec.source = type(from) == "table" and from.source or from == "solution" and declaration.solution or declaration.skeleton
  spec.file = nil
  local name = spec.name
  if students[name] then error(say("students_name", tostring(name)), 0) end
  file_of[name] = lab_folder(lab_id) .. "/" .. tostring(name) .. ".cu"
  local text, saved = nil, nil
  if type(name) == "string" and from == nil then text, saved = saved_source(lab_id, name) end
  if text then
    local own = {}
    for key, value in pairs(spec) do own[key] = value end
    own.source = text
    local ok, why = pcall(declare, own, true)
    if ok then return nil end
    mark_not_compiling(name, saved, why)
    return say("edit_failed", name, saved, tostring(why))
  end
  declare(spec, true)
end

-- kernel.edited_lab_kernels(lab_id, names): those of a lab's kernels (names:
-- their names) the student keeps a source of, each {name=, where=}.
function kernel.edited_lab_kernels(lab_id, names)
  local edited = {}
  for _, name in ipairs(names) do
    local text, path = read_kept(lab_folder(lab_id) .. "/" .. name .. ".cu")
    if text then edited[#edited + 1] = { name = name, where = path or say("in_memory") } end
  end
  return edited
end

-- kernel.reset_lab_kernels(lab_id, names): forgets the student's own sources
-- of a lab's kernels (names: their names), so its steps declare the
-- skeletons again. The names whose source was forgotten, and a list of
-- "name: why" for those that could not be.
function kernel.reset_lab_kernels(lab_id, names)
  local forgotten, failed = {}, {}
  for _, name in ipairs(names) do
    local had, why = remove_kept(lab_folder(lab_id) .. "/" .. name .. ".cu")
    if had then forgotten[#forgotten + 1] = name elseif had == nil then failed[#failed + 1] = name .. ": " .. tostring(why) end
  end
  return forgotten, failed
end

return kernel
