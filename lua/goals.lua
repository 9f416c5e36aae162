-- goals.lua — what a goal step measures, and which part of it a launch
-- missed. A lab's goal may declare its parts (ask.needs): each part is a
-- test of the student's result and a cause. On a miss the student sees
-- every part, met or not, with what their own launch shows (the first
-- wrong element, the buffer and pattern behind too many sectors, how many
-- words share a bank), and the hint attached to the first cause that
-- failed (docs/instructors.md, "Goals and their causes").
local core = require "warplab.core"
local u = require "warplab.text"
local sweep = require "warplab.sweep"
local fmt = u.fmt

local goals = {}

local messages = {
  met = { en = "  ✓ %s", zh = "  ✓ %s" },
  missed = { en = "  ✗ %s", zh = "  ✗ %s" },
  met_ascii = { en = "  ok %s", zh = "  是 %s" },
  missed_ascii = { en = "  no %s", zh = "  否 %s" },
  parts = { en = "The goal, part by part, on your last launch:", zh = "按目标的各个部分看你最近的一次启动：" },
  -- the parts
  kernel_met = { en = "kernel %s", zh = "核函数 %s" },
  kernel_missed = { en = "this launch ran %s; the goal is about %s", zh = "这次启动运行的是 %s；目标针对的是 %s" },
  param_met = { en = "%s = %s", zh = "%s = %s" },
  param_missed = { en = "%s = %s; the goal keeps %s = %s", zh = "%s = %s；目标要求 %s = %s" },
  correct_met = { en = "its output is correct", zh = "输出正确" },
  correct_missed = { en = "its output is wrong: %s", zh = "输出错误：%s" },
  correct_unchecked = { en = "its output was not checked: %s", zh = "输出没有检查：%s" },
  sectors_met = { en = "%s: %s sectors per request (the goal: at most %s)", zh = "%s：每请求 %s 个扇区（目标：至多 %s）" },
  sectors_missed = { en = "%s: %s sectors per request, the goal at most %s. %s",
                     zh = "%s：每请求 %s 个扇区，目标是至多 %s。%s" },
  sectors_none = { en = "%s: none in this launch", zh = "%s：这次启动没有" },
  loads = { en = "loads", zh = "读取" }, stores = { en = "stores", zh = "写入" },
  conflicts_met = { en = "shared memory: %s bank conflicts (the goal: at most %s)", zh = "共享内存：%s 次存储体冲突（目标：至多 %s）" },
  conflicts_missed = { en = "%s: %s bank conflicts, the goal at most %s. %s",
                       zh = "%s：%s 次存储体冲突，目标是至多 %s。%s" },
  shared_met = { en = "it uses shared memory (shared stores and shared loads)", zh = "用到了共享内存（有共享内存写入和读取）" },
  shared_missed = { en = "no %s in this launch: the work is not done in shared memory yet",
                    zh = "这次启动没有%s：这部分工作还没有放到共享内存里" },
  useful_met = { en = "loads use %s and stores %s of the bytes their sectors hold (the goal: at least %s)",
                 zh = "读取用到其扇区字节的 %s，写入用到 %s（目标：至少 %s）" },
  useful_missed = { en = "loads use %s and stores %s of the bytes their sectors hold, the goal at least %s: a request's lanes leave gaps in its sectors",
                    zh = "读取用到其扇区字节的 %s，写入用到 %s，目标是至少 %s：一个请求的各通道在它的扇区里留下了空隙" },
  loads_met = { en = "global loads: %s requests for each store request (the goal: at most %s)",
                zh = "全局读取：每个写请求对应 %s 个读请求（目标：至多 %s）" },
  loads_missed = { en = "global loads: %s requests for each store request, the goal at most %s: each output's inputs are loaded from global memory again for every use",
                   zh = "全局读取：每个写请求对应 %s 个读请求，目标是至多 %s：每个输出的输入每用一次就从全局内存重新读一次" },
  time_met = { en = "time %s ms (the goal: at most %s ms)", zh = "时间 %s 毫秒（目标：至多 %s 毫秒）" },
  time_missed = { en = "time %s ms, the goal at most %s ms", zh = "时间 %s 毫秒，目标是至多 %s 毫秒" },
  -- what warp 0 of the launch shows
  lanes_apart = { en = "In warp 0, %s[]: neighbouring lanes are %s bytes apart, so its %d lanes touch %d sectors where %d would hold their bytes.",
                  zh = "在 warp 0 中，%s[]：相邻线程的地址相隔 %s 字节，所以它的 %d 个线程碰到 %d 个扇区，而 %d 个就装得下它们的字节。" },
  misaligned = { en = "In warp 0, %s[]: its lanes' bytes are contiguous but start %d bytes into a sector, so they span %d sectors, not %d.",
                 zh = "在 warp 0 中，%s[]：线程的字节是连续的，但从一个扇区的第 %d 个字节开始，所以跨了 %d 个扇区，而不是 %d 个。" },
  scattered = { en = "In warp 0, %s[]: its %d lanes' addresses are scattered over %d sectors where %d would hold their bytes.",
                zh = "在 warp 0 中，%s[]：它的 %d 个线程的地址散布在 %d 个扇区里，而 %d 个就装得下它们的字节。" },
  one_bank = { en = "In warp 0, one request of the %s takes %d wavefronts where %d would do: its lanes' words are %s bytes apart, a multiple of 128, so %d of them fall in one bank. Padding each row of the array by one element moves each row one bank along.",
               zh = "在 warp 0 中，一次%s请求用了 %d 个 wavefront，本来 %d 个就够：线程的字相隔 %s 字节，是 128 的倍数，所以其中 %d 个落在同一个存储体里。给数组的每一行多填充一个元素，每一行就错开一个存储体。" },
  some_banks = { en = "In warp 0, one request of the %s takes %d wavefronts where %d would do: up to %d of its lanes' words fall in one bank (a %d-way conflict).",
                 zh = "在 warp 0 中，一次%s请求用了 %d 个 wavefront，本来 %d 个就够：它的线程中最多有 %d 个字落在同一个存储体里（%d 路冲突）。" },
  shared_load = { en = "shared loads", zh = "共享内存读取" }, shared_store = { en = "shared stores", zh = "共享内存写入" },
  -- checking what a lab declares
  unknown_part = { en = "ask.needs.%s is not a part a goal can have (%s)", zh = "ask.needs.%s 不是目标能有的部分（%s）" },
  bad_part = { en = "ask.needs.%s must be %s, got %s", zh = "ask.needs.%s 必须是%s，实际是 %s" },
  a_name = { en = "a kernel's name", zh = "核函数名" }, true_only = { en = "true", zh = "true" },
  a_number = { en = "a number, 0 or more", zh = "不小于 0 的数" },
  a_fraction = { en = "a fraction above 0, at most 1", zh = "大于 0、至多为 1 的小数" },
  a_params = { en = "a table of parameters and their values", zh = "参数及其取值的表" },
}
local say = u.messages("goals", messages)

local function is_count(v) return type(v) == "number" and v == v and v >= 0 and v ~= math.huge end
local function two_decimals(x) return fmt("%.2f", x) end
local function shown_value(v) return type(v) == "string" and fmt("%q", v) or tostring(v) end

---------------------------------------------------------------------------
-- What warp 0 of the launch shows: why a buffer's requests take more
-- sectors than their bytes need, and why shared accesses conflict
---------------------------------------------------------------------------

-- The lanes of one access in lane order: {lane offsets...}.
local function lane_offsets(access)
  local offsets = {}
  for lane = 0, 31 do
    if access.lanes[lane + 1] then offsets[#offsets + 1] = access.lanes[lane + 1] end
  end
  return offsets
end

-- The distance between neighbouring lanes when it is the same for all, else nil.
local function common_stride(offsets)
  local stride = offsets[2] and offsets[2] - offsets[1]
  for i = 3, #offsets do
    if offsets[i] - offsets[i - 1] ~= stride then return nil end
  end
  return stride
end

local function sectors_of(offsets, bytes)
  local seen, count = {}, 0
  for _, offset in ipairs(offsets) do
    for sector = offset // 32, (offset + bytes - 1) // 32 do
      if not seen[sector] then seen[sector], count = true, count + 1 end
    end
  end
  return count
end

-- Warp 0's accesses in the launch r, run once for all the parts a miss
-- lists (a kernel declared in Lua runs on the emulator); {} where it cannot run.
local warp_zero_of = setmetatable({}, { __mode = "k" })
local function warp_zero(r)
  if not warp_zero_of[r] then
    local ok, accesses = pcall(core.warp, r.kernel, r.params, 0)
    warp_zero_of[r] = ok and type(accesses) == "table" and accesses or {}
  end
  return warp_zero_of[r]
end

-- One sentence on the global access of `kind` in warp 0 with the most sectors beyond its ideal.
local function sector_pattern(r, kind)
  local accesses = warp_zero(r)
  local worst, worst_excess
  for _, access in ipairs(accesses) do
    local offsets = access.kind == kind and lane_offsets(access) or {}
    if #offsets > 0 then
      local sectors = sectors_of(offsets, access.bytes)
      local ideal = (#offsets * access.bytes + 31) // 32
      if not worst or sectors - ideal > worst_excess then
        worst, worst_excess = { access = access, offsets = offsets, sectors = sectors, ideal = ideal }, sectors - ideal
      end
    end
  end
  if not worst or worst_excess <= 0 then return "" end
  local access, offsets = worst.access, worst.offsets
  local buffer, stride = access.buffer or "?", common_stride(offsets)
  if stride == access.bytes then
    return say("misaligned", buffer, offsets[1] % 32, worst.sectors, worst.ideal)
  elseif stride and stride ~= 0 then
    return say("lanes_apart", buffer, u.commas(math.abs(stride)), #offsets, worst.sectors, worst.ideal)
  end
  return say("scattered", buffer, #offsets, worst.sectors, worst.ideal)
end

-- One sentence on the shared access of `kind` in warp 0 with the most wavefronts beyond its ideal.
local function bank_pattern(r, kind)
  local accesses = warp_zero(r)
  local worst
  for _, access in ipairs(accesses) do
    local offsets = access.kind == kind:gsub("_", " ") and lane_offsets(access) or {}
    local ideal = (#offsets * (access.bytes or 4) + 127) // 128
    if #offsets > 0 and access.wavefronts and access.wavefronts > ideal and
       (not worst or access.wavefronts - ideal > worst.wavefronts - worst.ideal) then
      worst = { access = access, offsets = offsets, wavefronts = access.wavefronts, ideal = ideal }
    end
  end
  if not worst then return "" end
  local words, per_bank, ways = {}, {}, 0
  for _, offset in ipairs(worst.offsets) do words[offset // 4] = true end
  for word in pairs(words) do
    per_bank[word % 32] = (per_bank[word % 32] or 0) + 1
    ways = math.max(ways, per_bank[word % 32])
  end
  local what, stride = say(kind), common_stride(worst.offsets)
  if stride and stride ~= 0 and stride % 128 == 0 then
    return say("one_bank", what, worst.wavefronts, worst.ideal, u.commas(stride), ways)
  end
  return say("some_banks", what, worst.wavefronts, worst.ideal, ways, ways)
end

---------------------------------------------------------------------------
-- The parts a goal can have: each a test of the result, what it says met
-- and missed, and its cause (the name a lab's hints are attached to)
---------------------------------------------------------------------------

-- A part on the sectors per request of r.load or r.store ("load", "store").
local function sectors_part(kind)
  local label = kind .. "s"
  return {
    name = kind .. "_sectors", cause = kind .. "_sectors", valid = is_count, expected = "a_number",
    holds = function(r, most) return r[kind] ~= nil and r[kind].sectors_per_request <= most end,
    says = function(r, most, met)
      local traffic = r[kind]
      if not traffic then return say("sectors_none", say(label)) end
      local shown = two_decimals(traffic.sectors_per_request)
      if met then return say("sectors_met", say(label), shown, fmt("%g", most)) end
      return say("sectors_missed", say(label), shown, fmt("%g", most), sector_pattern(r, kind))
    end,
  }
end

local function conflicts_of(r)
  return (r.shared_load and r.shared_load.bank_conflicts or 0) + (r.shared_store and r.shared_store.bank_conflicts or 0)
end

-- In the order they are checked and listed: the first that fails is the cause.
-- The share of the bytes their sectors hold that a launch's loads (or stores) use; 1 with none.
local function useful_of(r, kind) return r[kind] and r[kind].useful_fraction or 1 end

-- Global load requests for each store request: how often a kernel's inputs
-- are loaded again (a stencil without a tile: one request a neighbour).
local function loads_per_store(r)
  local load, store = r.load, r.store
  if load and store and store.requests > 0 then return load.requests / store.requests end
end

local parts = {
  { name = "kernel", cause = "kernel", valid = function(v) return type(v) == "string" end, expected = "a_name",
    holds = function(r, name) return r.kernel == name end,
    says = function(r, name, met) return met and say("kernel_met", name) or say("kernel_missed", tostring(r.kernel), name) end },
  { name = "params", cause = "params", valid = function(v) return type(v) == "table" end, expected = "a_params",
    holds = function(r, want)
      for key, value in pairs(want) do
        if (r.params or {})[key] ~= value then return false end
      end
      return true
    end,
    says = function(r, want, met)
      local lines = {}
      for key, value in pairs(want) do
        local got = (r.params or {})[key]
        lines[#lines + 1] = got == value and say("param_met", key, shown_value(value))
                            or say("param_missed", key, shown_value(got), key, shown_value(value))
      end
      table.sort(lines)
      return table.concat(lines, "; ")
    end },
  { name = "correct", cause = "output", valid = function(v) return v == true end, expected = "true_only",
    holds = function(r) return r.correct == true end,
    says = function(r, _, met)
      if met then return say("correct_met") end
      if r.correct == false then return say("correct_missed", tostring(r.mismatch)) end
      return say("correct_unchecked", tostring(r.unchecked or "?"))
    end },
  { name = "shared", cause = "shared", valid = function(v) return v == true end, expected = "true_only",
    holds = function(r) return r.shared_load ~= nil and r.shared_store ~= nil end,
    says = function(r, _, met)
      if met then return say("shared_met") end
      return say("shared_missed", say(r.shared_store and "shared_load" or "shared_store"))
    end },
  sectors_part("load"),
  sectors_part("store"),
  { name = "bank_conflicts", cause = "bank_conflicts", valid = is_count, expected = "a_number",
    holds = function(r, most) return conflicts_of(r) <= most end,
    says = function(r, most, met)
      if met then return say("conflicts_met", u.commas(conflicts_of(r)), fmt("%g", most)) end
      local load = r.shared_load and r.shared_load.bank_conflicts or 0
      local kind = load > 0 and "shared_load" or "shared_store"
      return say("conflicts_missed", say(kind), u.commas(conflicts_of(r)), fmt("%g", most), bank_pattern(r, kind))
    end },
  { name = "useful", cause = "useful", valid = function(v) return type(v) == "number" and v > 0 and v <= 1 end, expected = "a_fraction",
    holds = function(r, least) return useful_of(r, "load") >= least - 1e-9 and useful_of(r, "store") >= least - 1e-9 end,
    says = function(r, least, met)
      local function percent(v) return fmt("%.0f%%", 100 * v) end
      return say(met and "useful_met" or "useful_missed", percent(useful_of(r, "load")), percent(useful_of(r, "store")), percent(least))
    end },
  { name = "loads_per_store", cause = "loads", valid = function(v) return is_count(v) and v > 0 end, expected = "a_number",
    holds = function(r, most) return loads_per_store(r) ~= nil and loads_per_store(r) <= most end,
    says = function(r, most, met)
      return say(met and "loads_met" or "loads_missed", fmt("%.3g", loads_per_store(r) or 0), fmt("%g", most))
    end },
  { name = "time_ms", cause = "time", valid = function(v) return is_count(v) and v > 0 end, expected = "a_number",
    holds = function(r, most) return sweep.time_of(r) <= most end,
    says = function(r, most, met)
      return say(met and "time_met" or "time_missed", fmt("%.4g", sweep.time_of(r)), fmt("%g", most))
    end },
}
local part_names = {}
for _, entry in ipairs(parts) do part_names[#part_names + 1] = entry.name end

-- The causes the parts of needs can give, as a set, with .listed: "kernel, load_sectors".
function goals.causes_of(needs)
  local causes, names = {}, {}
  for _, entry in ipairs(parts) do
    if needs[entry.name] ~= nil then causes[entry.cause] = true; names[#names + 1] = entry.cause end
  end
  causes.listed = table.concat(names, ", ")
  return causes
end

-- Raises one line naming the part when ask.needs is not well formed.
function goals.validate(where, needs)
  local known = {}
  for _, entry in ipairs(parts) do known[entry.name] = entry end
  for name, value in pairs(needs) do
    local entry = known[name]
    if not entry then error(fmt("%s: %s", where, say("unknown_part", tostring(name), table.concat(part_names, ", "))), 0) end
    if not entry.valid(value) then
      error(fmt("%s: %s", where, say("bad_part", name, say(entry.expected), type(value))), 0)
    end
  end
end

-- Whether the result meets every part; else false and the first cause missed.
function goals.meets(needs, r)
  for _, entry in ipairs(parts) do
    local want = needs[entry.name]
    if want ~= nil and not entry.holds(r, want) then return false, entry.cause end
  end
  return true
end

-- Every part of the goal, met or missed, as the result shows it: lines
-- (only the kernel's, when the launch was of another kernel).
function goals.checklist(needs, r)
  local fancy = core.fancy()
  local lines = { say("parts") }
  for _, entry in ipairs(parts) do
    local want = needs[entry.name]
    if want ~= nil then
      local met = entry.holds(r, want)
      local mark = met and (fancy and "met" or "met_ascii") or (fancy and "missed" or "missed_ascii")
      lines[#lines + 1] = say(mark, entry.says(r, want, met))
      if entry.name == "kernel" and not met then break end   -- another kernel's numbers say nothing of the goal
    end
  end
  return lines
end

return goals
