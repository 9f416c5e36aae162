-- sass.lua: sass(kernel), the machine code the GPU runs for a kernel
-- declared with kernel{}: NVRTC's CUBIN for the device's architecture (the
-- modelled one's without a GPU), disassembled by NVIDIA's nvdisasm
-- (core.disassemble), printed by source line: each line of the kernel that
-- touches memory, with the instructions ptxas made of it, their space,
-- access and bytes a lane. It shows what the PTX the emulator runs does
-- not: loads merged into wider ones (LDS.128), loops unrolled, local memory.
local core = require "warplab.core"
local u = require "warplab.text"
local registry = require "warplab.registry"
local kernel = require "warplab.kernel"
local compile = require "warplab.compile"

local sass = {}

local messages = {
  bad_kernel = { en = "bad argument #1 to 'sass' (a kernel's name or a result expected, got %s)",
                 zh = "bad argument #1 to 'sass' (需要内核名或结果，得到 %s)" },
  bad_options = { en = "bad argument #2 to 'sass' (a table {arch=, all=} expected, got %s)",
                  zh = "bad argument #2 to 'sass' (需要表 {arch=, all=}，得到 %s)" },
  bad_arch = { en = "bad argument #2 to 'sass' (arch must be an architecture such as \"sm_90\", got %s)",
               zh = "bad argument #2 to 'sass' (arch 必须是 \"sm_90\" 这样的架构，得到 %s)" },
  built_in = { en = "sass() shows kernels declared with kernel{}; '%s' is built in: info(\"%s\").source shows its CUDA source",
               zh = "sass() 显示用 kernel{} 声明的内核；'%s' 是内置内核：info(\"%s\").source 显示它的 CUDA 源代码" },
  unknown = { en = "no kernel '%s' was declared with kernel{} in this session", zh = "本次会话中没有用 kernel{} 声明过内核 '%s'" },
  not_found = { en = "the machine code of '%s' holds no kernel of that name (it holds: %s)",
                zh = "'%s' 的机器码中没有这个名字的内核（其中有：%s）" },
  heading = { en = "%s as ptxas compiled it for %s: %d instructions, %d of them touch memory",
              zh = "%s 经 ptxas 为 %s 编译后的机器码：%d 条指令，其中 %d 条访问内存" },
  line = { en = "line %d: ", zh = "第 %d 行：" },
  no_line = { en = "(no source line)", zh = "（没有对应的源代码行）" },
  per_lane = { en = "%s %s, %d B a lane", zh = "%s%s，每个线程 %d 字节" },
  more = { en = "%d more instructions on this line", zh = "这一行还有 %d 条其他指令" },
  totals = { en = "In all: %s.", zh = "合计：%s。" },
  count = { en = "%d %s %s%s", zh = "%d 条%s%s%s" },
  wide = { en = "%d of %d B a lane", zh = "其中 %d 条每个线程 %d 字节" },
  aside = { en = " (%s)", zh = "（%s）" },
  wide_note = { en = "A load or store of 8 or 16 B a lane moves a float2 or float4 at once: the source asked for it, or ptxas merged neighbouring accesses (four LDS of one tile row become one LDS.128): fewer requests than the PTX has.",
                zh = "每个线程 8 或 16 字节的加载或存储一次搬运一个 float2 或 float4：要么源代码本来如此，要么 ptxas 把相邻的访问合并了（一行 tile 的四条 LDS 变成一条 LDS.128）：请求数比 PTX 中的少。" },
  local_note = { en = "Local memory (LDL/STL) is a thread's own, in DRAM behind the caches: registers spilled, or an array indexed by a value known only at run time.",
                 zh = "本地内存（LDL/STL）是每个线程私有的，位于缓存之后的 DRAM 中：寄存器溢出，或者数组的下标在运行时才知道。" },
  all_hint = { en = "sass(\"%s\", {all = true}) shows every instruction.", zh = "sass(\"%s\", {all = true}) 显示全部指令。" },
  space_global = { en = "global", zh = "全局" }, space_shared = { en = "shared", zh = "共享" },
  space_local = { en = "local", zh = "本地" }, space_generic = { en = "generic", zh = "通用" },
  space_constant = { en = "constant", zh = "常量" },
  access_load = { en = "load", zh = "加载" }, access_store = { en = "store", zh = "存储" },
  access_atomic = { en = "atomic", zh = "原子操作" }, access_reduction = { en = "reduction", zh = "归约" },
  ["access_async copy"] = { en = "async copy", zh = "异步拷贝" },
}
local say = u.messages("sass", messages)

-- The spaces the card counts: constant-bank loads (the kernel's params) are left out unless all.
local COUNTED = { global = true, shared = true, ["local"] = true, generic = true }

-- The device's architecture: "sm_90".
local function device_arch()
  return "sm_" .. (core.globals.device().compute_capability:gsub("%.", ""))
end

-- The kernel's name and the source it runs: from a name or from a result.
local function kernel_of(what)
  if type(what) == "table" and type(what.kernel) == "string" then
    return what.kernel, kernel.source_ran(what)
  end
  if type(what) ~= "string" then error(say("bad_kernel", u.quote(what)), 3) end
  return what, kernel.kernel_source(what)
end

local function check_options(options)
  if options == nil then return {} end
  if type(options) ~= "table" then error(say("bad_options", u.quote(options)), 3) end
  if options.arch ~= nil and not (type(options.arch) == "string" and options.arch:match("^sm_%d%d%d?$")) then
    error(say("bad_arch", u.quote(options.arch)), 3)
  end
  return options
end

-- The listing's kernel that a __global__ function called name compiles to: its
-- mangled name is _Z<length><name>..., or name itself (extern "C").
local function kernel_named(listing, name)
  local mangled, names = "_Z" .. #name .. name, {}
  for _, k in ipairs(listing.kernels) do
    if k.name == name or k.name:sub(1, #mangled) == mangled then return k end
    names[#names + 1] = k.name
  end
  error(say("not_found", name, table.concat(names, ", ")), 0)
end

local fit = u.fit

local function what(i)
  return say("per_lane", say("space_" .. i.space), say("access_" .. i.access), i.bytes)
end

-- One instruction's row, fitted to width: offset, opcode with its modifiers,
-- operands, and what it touches.
local function row(i, width)
  local code = i.predicate ~= "" and i.predicate .. " " .. i.opcode .. i.modifiers or i.opcode .. i.modifiers
  local note = i.space and what(i) or ""
  return fit((("    %04x  %s %s  %s"):format(i.offset, u.pad(code, 12), u.pad(fit(i.operands, 26), 26), note):gsub(" +$", "")), width)
end

local function shown(i, all)
  return all or (i.space and COUNTED[i.space])
end

-- The instructions by source line, in the order of the lines.
local function by_line(instructions)
  local groups, order = {}, {}
  for _, i in ipairs(instructions) do
    local line = i.line or 0
    if not groups[line] then groups[line] = {}; order[#order + 1] = line end
    table.insert(groups[line], i)
  end
  table.sort(order, function(a, b) return (a == 0 and math.huge or a) < (b == 0 and math.huge or b) end)
  return groups, order
end

-- "3 global loads, 1 global store, 24 shared loads (4 of 16 B a lane)"
local function totals_text(instructions)
  local counts, keys = {}, {}
  for _, i in ipairs(instructions) do
    if i.space and COUNTED[i.space] then
      local key = i.space .. " " .. i.access
      if not counts[key] then counts[key] = { n = 0, wide = {}, i = i }; keys[#keys + 1] = key end
      local c = counts[key]
      c.n = c.n + 1
      if i.bytes > 4 then c.wide[i.bytes] = (c.wide[i.bytes] or 0) + 1 end
    end
  end
  local parts = {}
  for _, key in ipairs(keys) do
    local c = counts[key]
    local wide = {}
    for bytes, n in pairs(c.wide) do wide[#wide + 1] = say("wide", n, bytes) end
    table.sort(wide)
    parts[#parts + 1] = say("count", c.n, say("space_" .. c.i.space), say("access_" .. c.i.access) .. (core.lang() == "zh" and "" or u.plural(c.n)),
                            #wide > 0 and say("aside", table.concat(wide, core.lang() == "zh" and "，" or ", ")) or "")
  end
  return table.concat(parts, core.lang() == "zh" and "，" or ", "), counts
end

local function notes(instructions)
  local wide, spilled = false, false
  for _, i in ipairs(instructions) do
    if i.space and COUNTED[i.space] and i.bytes > 4 then wide = true end
    if i.space == "local" then spilled = true end
  end
  local out = {}
  if wide then out[#out + 1] = say("wide_note") end
  if spilled then out[#out + 1] = say("local_note") end
  return out
end

local function print_listing(name, arch, k, source, all)
  local width, lines, memory = core.columns(), u.source_lines(source), 0
  for _, i in ipairs(k.instructions) do if i.space and COUNTED[i.space] then memory = memory + 1 end end
  print(u.wrap(say("heading", name, arch, #k.instructions, memory)))
  local groups, order = by_line(k.instructions)
  for _, line in ipairs(order) do
    local rows, others = {}, 0
    for _, i in ipairs(groups[line]) do
      if shown(i, all) then rows[#rows + 1] = row(i, width) else others = others + 1 end
    end
    if #rows > 0 then
      local head = line > 0 and say("line", line) .. ((lines[line] or ""):gsub("^%s+", "")) or say("no_line")
      print(fit(head, width))
      for _, text in ipairs(rows) do print(text) end
      if others > 0 and not all then print("    " .. say("more", others)) end
    end
  end
  print(u.wrap(say("totals", totals_text(k.instructions))))
  for _, note in ipairs(notes(k.instructions)) do print(u.wrap(note)) end
  if not all then print(u.wrap(say("all_hint", name))) end
end

-- sass.sass(kernel [, {arch=, all=}]), the global sass(): prints the kernel's
-- machine code by source line and returns {kernel=, arch=, instructions=}.
function sass.sass(what, options)
  local name, source = kernel_of(what)
  options = check_options(options)
  if not source then
    if registry.family_by_name[name] then error(say("built_in", name, name), 2) end
    error(say("unknown", name), 2)
  end
  local arch = options.arch or device_arch()
  local code = compile.compile(source, { name = name .. ".cu", arch = arch, binary = true })
  local listing, why = core.disassemble(code.cubin)
  if not listing then error(why, 2) end
  local k = kernel_named(listing, name)
  print_listing(name, arch, k, source, options.all)
  return { kernel = name, arch = arch, instructions = k.instructions }
end

return sass
