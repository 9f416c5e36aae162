-- lines.lua: lines([r]), where a kernel's traffic comes from and why: the
-- launch run again on the emulator (core.emulate_lines), its accesses
-- counted by the source line of the instruction that made them, each line
-- that touches memory printed with its requests, sectors or wavefronts per
-- request against the ideal and its share of the kernel's, the worst marked
-- and diagnosed from the lanes' addresses (lanes a stride apart, a
-- misaligned start, a gather, a broadcast, bank conflicts, lanes on one
-- atomic address), with the fix. The emulator runs the PTX: ptxas may merge
-- accesses (sass() shows what the GPU runs).
local core = require "warplab.core"
local u = require "warplab.text"
local registry = require "warplab.registry"
local kernel = require "warplab.kernel"

local lines = {}

local messages = {
  bad_result = { en = "bad argument #1 to 'lines' (a result of launch() or a kernel's name expected, got %s)",
                 zh = "bad argument #1 to 'lines' (需要 launch() 的结果或核函数名，得到 %s)" },
  no_result = { en = "lines() needs a launch: lines(r), lines(\"strided\", {stride = 4}), or launch something first",
                zh = "lines() 需要一次启动：lines(r)、lines(\"strided\", {stride = 4})，或者先启动一次" },
  heading = { en = "%s: traffic by source line, as the emulator counts it (%s)", zh = "%s：按源代码行统计的访存流量（模拟器按 %s 计数）" },
  col_requests = { en = "requests", zh = "请求数" }, col_per = { en = "per request", zh = "每个请求" },
  col_ideal = { en = "ideal", zh = "理想值" }, col_share = { en = "share", zh = "占比" },
  line = { en = "line %d: ", zh = "第 %d 行：" },
  no_line = { en = "(no source line)", zh = "（没有对应的源代码行）" },
  nothing = { en = "%s touches no memory the card counts", zh = "%s 没有访问结果卡片统计的内存" },
  kind_load = { en = "global load", zh = "全局加载" }, kind_store = { en = "global store", zh = "全局存储" },
  kind_shared_load = { en = "shared load", zh = "共享加载" }, kind_shared_store = { en = "shared store", zh = "共享存储" },
  kind_constant = { en = "constant load", zh = "常量加载" }, kind_atomic = { en = "global atomic", zh = "全局原子操作" },
  kind_reduction = { en = "global reduction", zh = "全局归约" }, kind_shared_atomic = { en = "shared atomic", zh = "共享原子操作" },
  kind_ldgsts = { en = "async copy", zh = "异步拷贝" },
  unit_sectors = { en = "sectors", zh = "扇区" }, unit_wavefronts = { en = "wavefronts", zh = "wavefront" },
  unit_passes = { en = "passes", zh = "遍" }, unit_lanes = { en = "lanes/addr", zh = "线程/地址" },
  worse = { en = "◀ %s× ideal", zh = "◀ 理想值的 %s 倍" },
  ways = { en = "◀ %d-way conflict", zh = "◀ %d 路冲突" },
  serial = { en = "◀ %d lanes wait", zh = "◀ %d 个线程排队" },
  why_head = { en = "Why, line %d (%s):", zh = "原因，第 %d 行（%s）：" },
  joiner = { en = " ", zh = "" },
  stride = { en = "neighbouring lanes are %s bytes apart in %s (%s elements of %d bytes), so a warp's %d-byte request spreads over %d sectors instead of %d. Make lanes next to each other (threadIdx.x) read elements next to each other: threadIdx.x in the last, fastest index.",
             zh = "相邻线程的地址相距 %s 字节（在 %s 中，即 %s 个 %d 字节的元素），所以一个 warp 的 %d 字节请求分散到 %d 个扇区，而不是 %d 个。让相邻的线程（threadIdx.x）访问相邻的元素：把 threadIdx.x 放在最后、变化最快的下标上。" },
  misaligned = { en = "the lanes read neighbouring elements of %s, but lane %d starts %d bytes into its 32-byte sector, so the warp's bytes straddle %d sectors instead of %d. Start each warp on a multiple of 32 bytes (or 128: a line).",
                 zh = "这些线程读取 %s 中相邻的元素，但线程 %d 从它所在的 32 字节扇区的第 %d 个字节开始，所以这个 warp 的数据跨了 %d 个扇区，而不是 %d 个。让每个 warp 从 32 字节（或 128 字节，一个缓存行）的整数倍处开始。" },
  gather = { en = "the lanes' addresses in %s follow no stride (a gather): one request touched %d distinct sectors for %d bytes. Sort the indices, or group the work so that a warp's lanes read near each other.",
             zh = "这些线程在 %s 中的地址没有固定步长（gather）：一个请求访问了 %d 个不同的扇区，只为取 %d 字节。把下标排序，或者重新分组工作，让一个 warp 的线程读取彼此相近的数据。" },
  broadcast = { en = "every lane reads the same address of %s: one sector serves the warp (a broadcast), which costs nothing extra.",
                zh = "所有线程读取 %s 中的同一个地址：一个扇区就服务整个 warp（广播），没有额外代价。" },
  banks = { en = "neighbouring lanes are %d words apart, so lanes %s all fall in bank %d: the request takes %d passes instead of %d. Pad each row by one word (declare the tile [TILE][TILE + 1]) so that a column spreads over the 32 banks.",
            zh = "相邻线程相距 %d 个字（4 字节），所以线程 %s 都落在存储体 %d 上：这个请求需要 %d 次，而不是 %d 次。给每一行多加一个字（把 tile 声明成 [TILE][TILE + 1]），让一列分散到 32 个存储体上。" },
  banks_other = { en = "lanes %s fall in bank %d at different words: the request takes %d passes instead of %d. Lay the data out so that the 32 lanes of a warp hit 32 different banks (or the same word).",
                  zh = "线程 %s 落在存储体 %d 的不同字上：这个请求需要 %d 次，而不是 %d 次。调整数据布局，让一个 warp 的 32 个线程落在 32 个不同的存储体上（或者同一个字上）。" },
  same_address = { en = "on average %s lanes of a request update one address, and an address takes its updates one after another. Give each lane its own address (a private copy per warp or block, in shared memory), then combine.",
                   zh = "平均每个请求有 %s 个线程更新同一个地址，而同一地址上的更新只能一个接一个进行。让每个线程更新自己的地址（每个 warp 或线程块在共享内存中各有一份私有副本），最后再合并。" },
  level_ptx = { en = "Counted on the PTX the emulator runs%s; ptxas can merge or split accesses: sass() shows the machine code.",
                zh = "按模拟器运行的 PTX 计数%s；ptxas 可能合并或拆分访问：sass() 显示机器码。" },
  ptx_why = { en = " (not the machine code: %s)", zh = "（不是机器码：%s）" },
  merged = { en = "machine code: %d of this line's %d %s instructions move %d bytes a lane (%s): ptxas merged neighbouring accesses, one request where the source makes several.",
             zh = "机器码：这一行的 %d 条（共 %d 条）%s指令每个线程搬运 %d 字节（%s）：ptxas 把相邻的访问合并了，源代码的几个请求成了一个。" },
  level_sass = { en = "Counted on the machine code (SASS) the GPU runs, as ptxas made it: sass() shows it.",
                 zh = "按 GPU 运行的机器码（SASS）计数，即 ptxas 生成的代码：sass() 显示它。" },
}
local say = u.messages("lines", messages)

-- The kinds of access a line may have, in the order they are shown, and what each counts.
local KINDS = {
  { name = "load", per = "sectors", ideal = "ideal_sectors", unit = "sectors", global = true },
  { name = "store", per = "sectors", ideal = "ideal_sectors", unit = "sectors", global = true },
  { name = "ldgsts", per = "sectors", unit = "sectors", global = true },
  { name = "atomic", per = "sectors", unit = "sectors", global = true, atomic = true },
  { name = "reduction", per = "sectors", unit = "sectors", global = true, atomic = true },
  { name = "shared_load", per = "wavefronts", ideal = "ideal_wavefronts", unit = "wavefronts", shared = true },
  { name = "shared_store", per = "wavefronts", ideal = "ideal_wavefronts", unit = "wavefronts", shared = true },
  { name = "shared_atomic", per = "operations", unit = "lanes", atomic = true },
  { name = "constant", per = "passes", unit = "passes" },
}

local function fixed(n) return ("%.2f"):format(n) end

-- What the student asked about: a kernel's name and its params, from a result or as given.
local function launch_of(what, params)
  if what == nil then
    local r = core.last_result()
    if r == nil then error(say("no_result"), 3) end
    return r.kernel, r.params, r
  end
  if type(what) == "table" and type(what.kernel) == "string" and type(what.params) == "table" then
    return what.kernel, what.params, what
  end
  if type(what) == "string" then return what, params or {}, nil end
  error(say("bad_result", u.quote(what)), 3)
end

-- The source the emulator compiled: a declared kernel's (as the result ran it), or a family's .cu.
local function source_of(name, params, r)
  local source = (r and kernel.source_ran(r)) or kernel.kernel_source(name)
  if source then return source end
  local ok, device = pcall(core.family_device, name, params)
  return ok and device.source or ""
end

-- Each line's rows: {kind=, requests=, per=, ideal=, weight=}; and the totals the shares are of.
local function rows_of(lines)
  local totals = { global = 0, shared = 0 }
  for _, l in ipairs(lines) do
    l.rows = {}
    for _, kind in ipairs(KINDS) do
      local c = l[kind.name]
      if c and c.requests > 0 then
        local row = { kind = kind, requests = c.requests, per = c[kind.per] / c.requests,
                      ideal = kind.ideal and c[kind.ideal] / c.requests, weight = c[kind.per], counts = c }
        if kind.atomic and c.same_address_lanes then row.serial = c.same_address_lanes / c.requests end
        local pool = kind.global and "global" or kind.shared and "shared"
        if pool then totals[pool] = totals[pool] + row.weight; row.pool = pool end
        l.rows[#l.rows + 1] = row
      end
    end
  end
  return totals
end

-- The mark a row earns: far above its ideal with a real share, or lanes in line for one address.
local function mark_of(row, share)
  if row.kind.shared and row.ideal and row.per > row.ideal * 1.01 and share >= 0.05 then
    return say("ways", math.floor(row.per / row.ideal + 0.5))
  end
  if row.ideal and row.per > row.ideal * 1.1 and share >= 0.10 then
    return say("worse", ("%.1f"):format(row.per / row.ideal))
  end
  if row.serial and row.serial >= 2 then return say("serial", math.floor(row.serial + 0.5)) end
  return nil
end

local right = u.align_right

-- A row of the table: what, requests, per request, ideal, share, mark.
local function table_row(what, requests, per, ideal, share, mark)
  return (("  %s%s  %s%s%s %s"):format(u.pad(what, 16), right(requests, 11), u.pad(per, 17), right(ideal, 5),
          right(share, 6), mark or ""):gsub(" +$", ""))
end

-- The table's heading row.
local function header_row()
  return table_row("", say("col_requests"), say("col_per"), say("col_ideal"), say("col_share"))
end

local function row_text(row, share, mark)
  return table_row(say("kind_" .. row.kind.name), u.commas(row.requests), fixed(row.per) .. " " .. say("unit_" .. row.kind.unit),
                   row.ideal and fixed(row.ideal) or "-", share and ("%.0f%%"):format(100 * share) or "", mark)
end

-- The active lanes of a sample, in lane order, with their offsets or addresses.
local function lanes_of(sample)
  local lanes, at = {}, sample.offsets or sample.addresses
  for lane = 1, 32 do
    if at[lane] then lanes[#lanes + 1] = { lane = lane - 1, at = at[lane] } end
  end
  return lanes
end

-- The step between neighbouring active lanes when there is one, else nil.
local function stride_of(lanes)
  if #lanes < 2 then return nil end
  local step = (lanes[2].at - lanes[1].at) // (lanes[2].lane - lanes[1].lane)
  for i = 2, #lanes do
    if lanes[i].at - lanes[i - 1].at ~= step * (lanes[i].lane - lanes[i - 1].lane) then return nil end
  end
  return step
end

local function distinct(lanes, size)
  local seen, n = {}, 0
  for _, l in ipairs(lanes) do
    local key = l.at // size
    if not seen[key] then seen[key], n = true, n + 1 end
  end
  return n
end

-- Why a global row costs more than its ideal, from its sample's lanes.
local function global_why(row, sample)
  local lanes = lanes_of(sample)
  local b, buffer = sample.bytes, "'" .. (sample.buffer or "?") .. "'"
  local step = stride_of(lanes)
  local sectors, ideal = math.floor(row.per + 0.5), math.max(1, math.floor(row.ideal + 0.5))
  if step == 0 then return say("broadcast", buffer) end
  if step == nil then return say("gather", buffer, distinct(lanes, 32), #lanes * b) end
  if math.abs(step) > b then
    return say("stride", u.commas(math.abs(step)), buffer, u.commas(math.abs(step) // b), b, #lanes * b, sectors, ideal)
  end
  local first = lanes[1]
  if first.at % 32 ~= 0 then return say("misaligned", buffer, first.lane, first.at % 32, sectors, ideal) end
  return nil
end

-- Why a shared row takes more passes than its ideal: the busiest bank and its lanes.
local function shared_why(row, sample)
  local lanes = lanes_of(sample)
  local words_in = {}
  for _, l in ipairs(lanes) do
    local bank = (l.at // 4) % 32
    words_in[bank] = words_in[bank] or { words = {}, count = 0, lanes = {} }
    local b = words_in[bank]
    if not b.words[l.at // 4] then b.words[l.at // 4], b.count = true, b.count + 1 end
    b.lanes[#b.lanes + 1] = l.lane
  end
  local busiest, bank = nil, nil
  for k, b in pairs(words_in) do
    if not busiest or b.count > busiest.count or (b.count == busiest.count and k < bank) then busiest, bank = b, k end
  end
  if not busiest or busiest.count < 2 then return nil end
  local shown = {}
  for i = 1, math.min(4, #busiest.lanes) do shown[i] = tostring(busiest.lanes[i]) end
  local zh = core.lang() == "zh"
  local more = not core.fancy() and (zh and "..." or ", ...") or zh and "……" or ", …"
  local lane_list = table.concat(shown, zh and "、" or ", ") .. (#busiest.lanes > 4 and more or "")
  local step = stride_of(lanes)
  local passes, ideal = math.floor(row.per + 0.5), math.max(1, math.floor(row.ideal + 0.5))
  if step and step % 4 == 0 and step > 4 then return say("banks", step // 4, lane_list, bank, passes, ideal) end
  return say("banks_other", lane_list, bank, passes, ideal)
end

local function why_of(row, sample)
  if not sample then return nil end
  if row.kind.shared then return shared_why(row, sample) end
  if row.serial and row.serial >= 2 then return say("same_address", ("%.1f"):format(row.serial)) end
  if row.kind.global and row.ideal then return global_why(row, sample) end
  return nil
end

-- "transpose variant=shared": the kernel and the params given (a result's are all of them).
local function label(name, params)
  local given = {}
  for key, value in pairs(params) do given[#given + 1] = key .. "=" .. registry.value_text(value) end
  table.sort(given)
  return #given > 0 and name .. " " .. table.concat(given, " ") or name
end

-- The kinds of access the card names, by the listing's space and access.
local LISTED_KIND = { ["global load"] = "load", ["global store"] = "store", ["shared load"] = "shared_load",
                      ["shared store"] = "shared_store" }

-- Where ptxas merged a line's accesses: by line, each kind whose
-- instructions are of mixed widths (some 8 or 16 bytes a lane, the rest
-- 4): {kind=, count=, wide=, bytes=, opcode=}. Empty without a listing.
local function merged_by_line(name, params)
  local ok, k = pcall(function() return require("warplab.sass").launch_listing(name, params) end)   -- sass requires this module
  local by_line = {}
  for _, i in ipairs(ok and k.instructions or {}) do
    local kind = i.space and LISTED_KIND[i.space .. " " .. i.access]
    if kind and i.line and i.line > 0 then
      by_line[i.line] = by_line[i.line] or {}
      local m = by_line[i.line][kind] or { kind = kind, count = 0, wide = 0, narrow = 0, bytes = 0 }
      by_line[i.line][kind] = m
      m.count = m.count + 1
      if i.bytes > 4 then
        m.wide = m.wide + 1
        if i.bytes > m.bytes then m.bytes, m.opcode = i.bytes, i.opcode .. i.modifiers end
      elseif i.bytes == 4 then
        m.narrow = m.narrow + 1
      end
    end
  end
  local out = {}
  for line, kinds in pairs(by_line) do
    for _, m in pairs(kinds) do
      if m.wide > 0 and m.narrow > 0 then out[line] = out[line] or {}; table.insert(out[line], m) end
    end
  end
  return out
end

-- lines.lines([r] | name [, params]), the global lines(): prints the launch's
-- traffic by source line and returns the lines: {line=, source=, load=,
-- store=, ... (counts), rows=}.
function lines.lines(what, params)
  local name, launch_params, r = launch_of(what, params)
  local counted, level, level_why = core.emulate_lines(name, launch_params)
  local text = u.source_lines(source_of(name, launch_params, r))
  local totals = rows_of(counted)
  local width = core.columns()
  print(u.wrap(say("heading", label(name, launch_params), level == "sass" and "SASS" or "PTX")))
  print(header_row())
  local any, worst = false, {}
  local merged = level == "sass" and merged_by_line(name, launch_params) or {}
  for _, l in ipairs(counted) do
    l.source = text[l.line]
    if #l.rows > 0 then
      any = true
      local head = l.line > 0 and say("line", l.line) .. ((text[l.line] or ""):gsub("^%s+", "")) or say("no_line")
      print(u.fit(head, width))
      for _, row in ipairs(l.rows) do
        local share = row.pool and totals[row.pool] > 0 and row.weight / totals[row.pool] or nil
        local mark = mark_of(row, share or 1)
        print(row_text(row, share, mark))
        if mark then worst[#worst + 1] = { line = l, row = row } end
      end
      for _, m in ipairs(merged[l.line] or {}) do
        local note = u.wrap(say("merged", m.wide, m.count, say("kind_" .. m.kind), m.bytes, m.opcode), width - 4)
        print("    " .. note:gsub("\n", "\n    "))
      end
    end
  end
  if not any then print(say("nothing", name)) end
  for _, w in ipairs(worst) do
    local why = why_of(w.row, w.line.samples[w.row.kind.name])
    if why then print(u.wrap(say("why_head", w.line.line, say("kind_" .. w.row.kind.name)) .. say("joiner") .. why)) end
  end
  print(u.wrap(level == "sass" and say("level_sass") or say("level_ptx", level_why and say("ptx_why", level_why) or "")))
  return counted
end

-- What sass() shows beside each instruction, as lines() shows it beside each line.
lines.rows_of, lines.row_text, lines.header_row = rows_of, row_text, header_row
function lines.kind_text(row) return say("kind_" .. row.kind.name) end
lines.mark_of, lines.why_of, lines.label, lines.source_of = mark_of, why_of, label, source_of

return lines
