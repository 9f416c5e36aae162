-- sass.lua: sass([r | kernel]), the machine code the GPU runs for a
-- kernel: NVRTC's CUBIN for the device's architecture (the modelled one's
-- without a GPU), disassembled by NVIDIA's nvdisasm (core.disassemble),
-- printed by source line: each line of the kernel that touches memory,
-- with the instructions ptxas made of it, their space, access and bytes a
-- lane. For a launch (a result) each memory instruction has its counts
-- beside it, as the SASS engine ran that launch, in lines()'s columns. It
-- shows what the PTX does not: loads merged into wider ones (LDS.128),
-- loops unrolled, local memory.
local core = require "warplab.core"
local u = require "warplab.text"
local registry = require "warplab.registry"
local kernel = require "warplab.kernel"
local compile = require "warplab.compile"
local lines = require "warplab.lines"

local sass = {}

local messages = {
  bad_kernel = { en = "bad argument #1 to 'sass' (a kernel's name or a result expected, got %s)",
                 zh = "bad argument #1 to 'sass' (需要核函数名或结果，得到 %s)" },
  no_result = { en = "sass() needs a kernel: sass(r), sass(\"my_kernel\"), or launch something first",
                zh = "sass() 需要一个核函数：sass(r)、sass(\"my_kernel\")，或者先启动一次" },
  built_in_arch = { en = "bad argument #2 to 'sass' (a built-in kernel is shown for this device's %s, not %s)",
                    zh = "bad argument #2 to 'sass' (内置核函数只按当前设备的 %s 显示，不能按 %s)" },
  counted = { en = "Beside each memory instruction, this launch's counts as the SASS engine ran it (%s).",
              zh = "每条访存指令旁边是这次启动的计数，由 SASS 引擎运行得出（%s）。" },
  not_counted = { en = "This launch ran at PTX level (%s): counts by instruction need the SASS level; lines() counts it by line.",
                  zh = "这次启动以 PTX 级别运行（%s）：按指令计数需要 SASS 级别；lines() 按行计数。" },
  why_head = { en = "Why, %04x (line %d, %s):", zh = "原因，%04x（第 %d 行，%s）：" },
  joiner = { en = " ", zh = "" },
  bad_options = { en = "bad argument #2 to 'sass' (a table {arch=, all=} expected, got %s)",
                  zh = "bad argument #2 to 'sass' (需要表 {arch=, all=}，得到 %s)" },
  bad_arch = { en = "bad argument #2 to 'sass' (arch must be an architecture such as \"sm_90\", got %s)",
               zh = "bad argument #2 to 'sass' (arch 必须是 \"sm_90\" 这样的架构，得到 %s)" },
  unknown = { en = "no kernel '%s' was declared with kernel{} in this session", zh = "本次会话中没有用 kernel{} 声明过核函数 '%s'" },
  not_found = { en = "the machine code of '%s' holds no kernel of that name (it holds: %s)",
                zh = "'%s' 的机器码中没有这个名字的核函数（其中有：%s）" },
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
  all_hint = { en = "sass(%s, {all = true}) shows every instruction.", zh = "sass(%s, {all = true}) 显示全部指令。" },
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

-- An instruction's counts, each kind a row as lines() prints it, indented
-- under the instruction; the rows marked go into worst.
local function count_rows(i, counts, totals, width, worst)
  local out = {}
  for _, r in ipairs(counts.rows) do
    local share = r.pool and totals[r.pool] > 0 and r.weight / totals[r.pool] or nil
    local mark = lines.mark_of(r, share or 1)
    out[#out + 1] = fit("  " .. lines.row_text(r, share, mark), width)
    if mark then worst[#worst + 1] = { i = i, row = r, sample = counts.samples[r.kind.name] } end
  end
  return out
end

-- The diagnoses of the marked rows, as lines() gives them.
local function print_why(worst)
  for _, w in ipairs(worst) do
    local why = lines.why_of(w.row, w.sample)
    if why then
      print(u.wrap(say("why_head", w.i.offset, w.i.line or 0, lines.kind_text(w.row)) .. say("joiner") .. why))
    end
  end
end

-- Prints k's instructions by source line; with counted ({by=, totals=}: a
-- launch's counts by instruction number), each memory instruction's counts.
local function print_listing(name, arch, k, source, all, counted, asked_as)
  local width, text, memory = core.columns(), u.source_lines(source), 0
  for n, i in ipairs(k.instructions) do
    i.number = n
    if i.space and COUNTED[i.space] then memory = memory + 1 end
  end
  print(u.wrap(say("heading", name, arch, #k.instructions, memory)))
  if counted then print(fit("  " .. lines.header_row(), width)) end
  local groups, order = by_line(k.instructions)
  local worst = {}
  for _, line in ipairs(order) do
    local rows, others = {}, 0
    for _, i in ipairs(groups[line]) do
      if shown(i, all) then
        rows[#rows + 1] = row(i, width)
        local counts = counted and counted.by[i.number]
        if counts then
          i.counts = counts
          for _, r in ipairs(count_rows(i, counts, counted.totals, width, worst)) do rows[#rows + 1] = r end
        end
      else
        others = others + 1
      end
    end
    if #rows > 0 then
      local head = line > 0 and say("line", line) .. ((text[line] or ""):gsub("^%s+", "")) or say("no_line")
      print(fit(head, width))
      for _, r in ipairs(rows) do print(r) end
      if others > 0 and not all then print("    " .. say("more", others)) end
    end
  end
  print(u.wrap(say("totals", totals_text(k.instructions))))
  for _, note in ipairs(notes(k.instructions)) do print(u.wrap(note)) end
  print_why(worst)
  if not all then print(u.wrap(say("all_hint", asked_as))) end
end

-- A launch's counts by instruction number, as the SASS engine ran it:
-- {by=, totals=}; nil and why when it ran at PTX level.
local function counts_of(name, params)
  local counted, level, why = core.emulate_lines(name, params, true)
  if level ~= "sass" then return nil, why end
  local by = {}
  for _, c in ipairs(counted) do if c.instruction then by[c.instruction] = c end end
  return { by = by, totals = lines.rows_of(counted) }
end

-- The listing of the kernel the launch runs, as the emulator has it (a
-- built-in's made once a process; a declared kernel's made at its first
-- launch): its kernel, and the source it came from.
local function launch_listing(name, params)
  local text, expression = core.family_listing(name, params)
  if not text then error(expression, 3) end
  local listing, why = core.read_listing(text)
  if not listing then error(why, 3) end
  return kernel_named(listing, (expression:match("^[%w_]+"))), lines.source_of(name, params)
end
sass.launch_listing = launch_listing   -- for lines(): where ptxas merged a line's accesses

-- What the student asked for: a result (the last one when nothing), else a kernel's name.
local function asked(what)
  if what == nil then
    what = core.last_result()
    if what == nil then error(say("no_result"), 3) end
  end
  if type(what) == "table" and type(what.kernel) == "string" and type(what.params) == "table" then
    return what.kernel, what.params, what
  end
  if type(what) ~= "string" then error(say("bad_kernel", u.quote(what)), 3) end
  return what, nil, nil
end

-- sass.sass([r | kernel] [, {arch=, all=}]), the global sass(): prints the
-- kernel's machine code by source line, for a launch with its counts, and
-- returns {kernel=, arch=, instructions=} (a counted instruction's counts as
-- instructions[n].counts).
function sass.sass(what, options)
  local name, params, r = asked(what)
  options = check_options(options)
  local arch = options.arch or device_arch()
  local built_in = registry.family_by_name[name] and not kernel.kernel_source(name)
  if built_in and arch ~= device_arch() then error(say("built_in_arch", device_arch(), arch), 2) end
  if arch == device_arch() and (r or built_in) then   -- the listing the emulator runs
    params = params or {}
    local k, source = launch_listing(name, params)
    local counted, why_not
    if r then counted, why_not = counts_of(name, params) end
    print_listing(name, arch, k, source, options.all, counted, r and "r" or u.quote(name))
    if counted then print(u.wrap(say("counted", lines.label(name, params)))) end
    if r and not counted then print(u.wrap(say("not_counted", why_not or "?"))) end
    return { kernel = name, arch = arch, instructions = k.instructions }
  end
  local source = r and kernel.source_ran(r) or kernel.kernel_source(name)
  if not source then error(say("unknown", name), 2) end
  local code = compile.compile(source, { name = name .. ".cu", arch = arch, binary = true })
  local listing, why = core.disassemble(code.cubin)
  if not listing then error(why, 2) end
  local k = kernel_named(listing, name)
  print_listing(name, arch, k, source, options.all, nil, r and "r" or u.quote(name))
  return { kernel = name, arch = arch, instructions = k.instructions }
end

return sass
