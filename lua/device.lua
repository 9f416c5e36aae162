-- device.lua (warplab.device): the device as it prints: device() (the GPU,
-- or the one the model describes), a device's name in the session's
-- language, the banner an interactive session starts with, and the list
-- alloc_alignment() returns.
local core = require "warplab.core"
local text = require "warplab.text"
local result = require "warplab.result"

local wrap, commas, bytes, mebibytes = text.wrap, text.commas, text.bytes, text.mebibytes
local guarded = result.guarded

local messages = {
  -- device(), the banner, alloc_alignment()
  device = { en = "%s · sm_%s · %d SMs · L2 %s · %s memory", zh = "%s · sm_%s · %d 个 SM · L2 %s · %s 显存" },
  device_bus = { en = "memory bus %d bits at %.0f MHz · peak %.0f GB/s (2 × clock × bus width / 8)",
                 zh = "内存总线 %d 位，%.0f MHz · 峰值带宽 %.0f GB/s（2 × 时钟 × 总线位宽 / 8）" },
  device_copy = { en = "measured copy ceiling %.0f GB/s (cudaMemcpy device to device, read + written)",
                  zh = "实测复制上限 %.0f GB/s（cudaMemcpy 设备到设备，读取 + 写入）" },
  device_no_copy = { en = "copy ceiling: not measured (no GPU)", zh = "复制上限：未实测（没有 GPU）" },
  backend_sim = { en = "backend %s: numbers are the access model's", zh = "后端 %s：数字来自访问模型" },
  backend_gpu = { en = "backend %s: CUDA", zh = "后端 %s：CUDA" },
  modelled_device = { en = "%s (modelled)", zh = "%s（模型估算）" },
  banner_where = { en = "%s (sm_%s, %d SMs, L2 %s) · peak %.2f TB/s", zh = "%s（sm_%s，%d 个 SM，L2 %s）· 峰值带宽 %.2f TB/s" },
  banner_copy = { en = " · copy %.2f TB/s", zh = " · 复制 %.2f TB/s" },
  banner = { en = "warplab %s · %s\nNew here? :lab tour.  :help for help, or launch(\"offset\", {offset=1}).  Tab completes.",
             zh = "warplab %s · %s\n初次使用？输入 :lab tour。:help 查看帮助，或试试 launch(\"offset\", {offset=1})。Tab 键补全。" },
  aligned = { en = "  %2d  %-18s aligned to 2^%d = %s bytes%s", zh = "  %2d  %-18s 对齐到 2^%d = %s 字节%s" },
  under_256 = { en = "  (under 256!)", zh = "（不足 256！）" },
  alignment_modelled = { en = "  (modelled: the sim backend has no cudaMalloc to ask)",
                         zh = "  （模型估算：sim 后端没有 cudaMalloc 可问）" },
  alignment_measured = { en = "  (from cudaMalloc on this GPU)", zh = "  （来自这块 GPU 上的 cudaMalloc）" },
  -- what a device() table or an alloc_alignment() list whose fields were changed is called
  kind_device = { en = "a device() table", zh = "device() 表" },
  kind_allocations = { en = "an alloc_alignment() list", zh = "alloc_alignment() 列表" },
}
local say = text.messages("device", messages)

-- A device's name: "(modelled)" in the session's language; left out in Chinese
-- with bare, where the text around the name says it is modelled.
local function device_name(name, bare)
  local base = name:match("^(.*) %(modelled%)$")
  if not base then return name end
  if bare then return base end
  return core.lang() == "zh" and say("modelled_device", base) or name
end

local Device = core.Device
Device.__name = "warplab.device"

local function device_text(d)
  local lines = {
    say("device", device_name(d.name), (d.compute_capability:gsub("%.", "")), d.sm_count, mebibytes(d.l2_bytes),
        bytes(d.memory_bytes)),
    say("device_bus", d.bus_width_bits, d.memory_clock_mhz, d.peak_gbs),
    d.copy_gbs and say("device_copy", d.copy_gbs) or say("device_no_copy"),
    say(d.backend == "sim" and "backend_sim" or "backend_gpu", d.backend),
  }
  if d.notice then lines[#lines + 1] = d.notice end
  return table.concat(lines, "\n")
end
Device.__tostring = guarded(messages.kind_device, function(d) return wrap(device_text(d)) end)

---------------------------------------------------------------------------
-- alloc_alignment(): addresses and the power of two each is aligned to
---------------------------------------------------------------------------

local Allocations = core.Allocations

Allocations.__tostring = guarded(messages.kind_allocations, function(list)
  local lines = {}
  for i, a in ipairs(list) do
    local power = math.floor(math.log(a.alignment, 2) + 0.5)
    lines[i] = say("aligned", i, a.address, power, commas(a.alignment), a.alignment >= 256 and "" or say("under_256"))
  end
  lines[#lines + 1] = say(list.modelled and "alignment_modelled" or "alignment_measured")
  return table.concat(lines, "\n")
end)

-- banner(): the first line of an interactive session.
local function banner()
  local d = core.globals.device()
  local where = say("banner_where", device_name(d.name), (d.compute_capability:gsub("%.", "")), d.sm_count,
                    mebibytes(d.l2_bytes), d.peak_gbs / 1000)
  if d.copy_gbs then where = where .. say("banner_copy", d.copy_gbs / 1000) end
  return wrap(say("banner", core.version, where))
end

return { device_name = device_name, banner = banner }
