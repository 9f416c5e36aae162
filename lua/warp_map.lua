-- warp_map.lua (warplab.warp_map): show(result [, warp]) and result.map,
-- one warp of a launch drawn access by access: each 128-byte line a global
-- access touches as four 32-byte sectors of eight 4-byte cells (used,
-- fetched and unused, not fetched) with the lanes in it, a shared-memory
-- access bank by bank, a constant load by its passes; then the warp's
-- totals.
local core = require "warplab.core"
local text = require "warplab.text"
local registry = require "warplab.registry"
local result = require "warplab.result"

local fmt, display_width, pad, plural, percent = text.fmt, text.display_width, text.pad, text.plural, text.percent
local wrap, quote = text.wrap, text.quote
local params_text = registry.params_text
local check_result = result.check_result

local messages = {
  -- the warp map
  kind_load = { en = "load", zh = "读取" },
  kind_store = { en = "store", zh = "写入" },
  ["kind_shared load"] = { en = "shared load", zh = "共享内存读取" },
  ["kind_shared store"] = { en = "shared store", zh = "共享内存写入" },
  kind_atomic = { en = "atomic", zh = "原子操作" },
  kind_reduction = { en = "reduction", zh = "归约" },
  ["kind_shared atomic"] = { en = "shared atomic", zh = "共享内存原子操作" },
  kind_ldgsts = { en = "cp.async", zh = "cp.async" },
  map_header = { en = "warp %d of %s  %s · lanes 0-31 are threads %d-%d · one cell = 4 bytes, %s used, %s fetched and unused, %s not fetched",
                 zh = "warp %d（%s  %s）· warp 内的通道 0-31 即线程 %d-%d · 每格 = 4 字节，%s 已使用，%s 已取回未使用，%s 未取回" },
  map_line = { en = "  +%-9d %s   lane%s %s", zh = "  +%-9d %s   线程%s %s" },
  map_access = { en = "%s %s[] · %d-byte elements · %d lanes · %d sector%s (ideal %d) · %d of %d fetched bytes used (%s)",
                 zh = "%s %s[] · %d 字节的元素 · %d 个线程 · %d 个扇区%s（理想值 %d）· 取回的 %d/%d 字节被使用（%s）" },
  map_shared = { en = "%s · %d-byte elements · %d lanes · %d wavefront%s (ideal %d)%s",
                 zh = "%s · %d 字节的元素 · %d 个线程 · %d 个 wavefront%s（理想值 %d）%s" },
  map_conflicts = { en = " · %d extra from bank conflicts", zh = " · 存储体冲突多出 %d 个" },
  map_bank = { en = "bank", zh = "存储体" },
  map_words = { en = "words", zh = "字" },
  map_constant = { en = "constant load · %d-byte elements · %d lanes · %d distinct address%s: %d pass%s of the constant cache",
                   zh = "常量内存读取 · %d 字节的元素 · %d 个线程 · %d 个不同地址%s：常量缓存 %d 轮%s" },
  map_total = { en = "warp %d: %d global requests · %d sectors · %d of %d fetched bytes used (%s)",
                zh = "warp %d：%d 个全局内存请求 · %d 个扇区 · 取回的 %d/%d 字节被使用（%s）" },
  warp_expected = { en = "bad argument #2 to 'show' (warp number expected, got %s)",
                    zh = "bad argument #2 to 'show' (需要 warp 编号，得到 %s)" },
}
local say = text.messages("warp_map", messages)

local Result = core.Result

-- "0-30", "31", "0, 4, 8-11": sorted lane numbers as ranges.
local function lane_ranges(lanes)
  table.sort(lanes)
  local parts, first = {}, 1
  for i = 1, #lanes do
    if i == #lanes or lanes[i + 1] ~= lanes[i] + 1 then
      parts[#parts + 1] = first == i and tostring(lanes[i]) or lanes[first] .. "-" .. lanes[i]
      first = i + 1
    end
  end
  return table.concat(parts, ", ")
end

-- Marks, for one access, the bytes used per 128-byte line and the lanes in each line.
local function lines_of(access)
  local lines = {}
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      for byte = offset, offset + access.bytes - 1 do
        local line = byte // 128
        local entry = lines[line] or { used = {}, lanes = {}, seen = {} }
        lines[line] = entry
        entry.used[byte % 128] = true
        if not entry.seen[lane] then entry.seen[lane] = true; entry.lanes[#entry.lanes + 1] = lane end
      end
    end
  end
  return lines
end

-- One line as 4 sectors of 8 four-byte cells: used, fetched but unused, not fetched.
local function line_row(entry, marks)
  local sectors, fetched, used = {}, 0, 0
  for sector = 0, 3 do
    local cells, any = {}, false
    for cell = 0, 7 do
      local hit = false
      for byte = 0, 3 do
        if entry.used[sector * 32 + cell * 4 + byte] then hit = true; used = used + 1 end
      end
      cells[cell + 1] = hit
      any = any or hit
    end
    local text = {}
    for cell = 1, 8 do text[cell] = not any and marks.none or cells[cell] and marks.used or marks.unused end
    sectors[#sectors + 1] = table.concat(text)
    if any then fetched = fetched + 1 end
  end
  return table.concat(sectors, " "), fetched, used
end

local function draw_access(access, marks)
  local lines = lines_of(access)
  local order = {}
  for line in pairs(lines) do order[#order + 1] = line end
  table.sort(order)
  local rows, sectors, used, lanes = {}, 0, 0, 0
  for _ in pairs(access.lanes) do lanes = lanes + 1 end
  for _, line in ipairs(order) do
    local row, fetched, bytes_used = line_row(lines[line], marks)
    sectors, used = sectors + fetched, used + bytes_used
    rows[#rows + 1] = say("map_line", line * 128, row, plural(#lines[line].lanes), lane_ranges(lines[line].lanes))
  end
  local ideal = (lanes * access.bytes + 31) // 32
  table.insert(rows, 1, say("map_access", say("kind_" .. access.kind), access.buffer or "?", access.bytes, lanes, sectors,
    plural(sectors), ideal, used, 32 * sectors, percent(sectors > 0 and used / (32 * sectors) or 1)))
  return table.concat(rows, "\n"), sectors, used
end

-- A shared-memory access: for each of the 32 banks, how many distinct words the lanes hit in it.
local function draw_shared(access)
  local words, lanes = {}, 0
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      lanes = lanes + 1
      for word = offset // 4, (offset + access.bytes - 1) // 4 do words[word] = true end
    end
  end
  local per_bank, header, counts = {}, {}, {}
  for word in pairs(words) do per_bank[word % 32] = (per_bank[word % 32] or 0) + 1 end
  for bank = 0, 31 do
    header[#header + 1] = fmt("%2d", bank)
    counts[#counts + 1] = fmt("%2s", per_bank[bank] and tostring(per_bank[bank]) or "-")
  end
  local ideal = (lanes * access.bytes + 127) // 128
  local width = math.max(display_width(say("map_bank")), display_width(say("map_words")))
  local lines = { say("map_shared", say("kind_" .. access.kind), access.bytes, lanes, access.wavefronts, plural(access.wavefronts),
                      ideal, access.wavefronts > ideal and say("map_conflicts", access.wavefronts - ideal) or "") }
  -- the 32 banks on one pair of rows, or in halves of 16 where the terminal is too narrow for 32
  local per_row = 3 + width + 3 * 32 <= core.columns() and 32 or 16
  for first = 1, 32, per_row do
    lines[#lines + 1] = "  " .. pad(say("map_bank"), width) .. " " .. table.concat(header, " ", first, first + per_row - 1)
    lines[#lines + 1] = "  " .. pad(say("map_words"), width) .. " " .. table.concat(counts, " ", first, first + per_row - 1)
  end
  return table.concat(lines, "\n"), 0, 0
end

-- A constant-memory load: one pass per distinct address.
local function draw_constant(access)
  local seen, passes, lanes = {}, 0, 0
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      lanes = lanes + 1
      if not seen[offset] then seen[offset] = true; passes = passes + 1 end
    end
  end
  return say("map_constant", access.bytes, lanes, passes, plural(passes, "es"), passes, plural(passes, "es")), 0, 0
end

-- The map of one warp of a launch: every memory instruction, then the totals.
local function warp_map(kernel, params, warp)
  warp = warp or 0
  local marks = core.fancy() and { used = "█", unused = "░", none = "·" } or { used = "#", unused = ".", none = "-" }
  local accesses = core.warp(kernel, params, warp)
  local parts = { say("map_header", warp, kernel, params_text(kernel, params), warp * 32, warp * 32 + 31, marks.used,
                      marks.unused, marks.none) }
  local requests, sectors, used = 0, 0, 0
  for _, access in ipairs(accesses) do
    if next(access.lanes) then
      local text, s, u
      local global = access.kind == "load" or access.kind == "store" or access.kind == "atomic"
                     or access.kind == "reduction" or access.kind == "ldgsts"
      if access.kind == "constant load" then text, s, u = draw_constant(access)
      elseif not global then text, s, u = draw_shared(access)
      else text, s, u = draw_access(access, marks) end
      parts[#parts + 1] = text
      if global then requests = requests + 1 end
      sectors, used = sectors + s, used + u
    end
  end
  parts[#parts + 1] = say("map_total", warp, requests, sectors, used, 32 * sectors,
                          percent(sectors > 0 and used / (32 * sectors) or 1))
  return table.concat(parts, "\n")
end

-- result.map: the warp map of warp 0, drawn when it is first read.
function Result.__index(r, key)
  if key == "map" then
    local map = warp_map(rawget(r, "kernel"), rawget(r, "params"), 0)
    rawset(r, "map", map)
    return map
  end
end

-- show(result [, warp]): draws the warp map of one warp of a launch (warp 0 by default).
local function show(result, warp)
  check_result(result, 1, "show")
  if warp ~= nil and math.type(warp) ~= "integer" then
    error(say("warp_expected", quote(warp, '"')), 2)
  end
  local ok, map = pcall(warp_map, rawget(result, "kernel"), rawget(result, "params"), warp)
  if not ok then   -- core.warp's argument #3 is show's #2, the rest come from the result (#1)
    local arg, problem = tostring(map):match("bad argument #(%d) to '[^']*' %((.*)%)$")
    if not arg then error(map, 0) end
    error(fmt("bad argument #%d to 'show' (%s)", arg == "3" and 2 or 1, problem), 2)
  end
  print(wrap(map))
end

return { show = show, warp_map = warp_map }
