-- api.lua: the Lua API on the access model: launch results, kernels(),
-- info(), device(), help() and the <...> shorthand.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

-- The reference notes' experiment: the H200's own counter values.
local r = launch("offset", {offset = 1, n = 262144})
t.is(r.kernel, "offset", "result names its kernel")
t.is(r.backend, "sim", "result says which backend made it")
t.is(r.load.requests, 16384, "offset=1: 16,384 load requests")
t.is(r.load.sectors, 81918, "offset=1: 81,918 load sectors")
t.is(r.load.sectors_per_request, 5.0, "offset=1: 5.00 sectors per request")
t.is(r.store.requests, 8192, "offset=1: 8,192 store requests")
t.is(r.store.sectors, 32768, "offset=1: 32,768 store sectors")
t.is(r.load.ideal, 4.0, "offset=1: ideal 4.00")
t.is(r.load.source, "model", "sim numbers are labelled as the model's")
t.is(r.model.load.sectors, 81918, "result.model repeats the model's counts")
t.is(r.params.offset, 1, "params holds what was asked")
t.is(r.params.block, 256, "params holds the defaults too")
t.is(r.useful_bytes, 3 * 4 * (262144 - 1), "useful bytes: two loads and a store per working thread")
t.is(r.footprint_bytes, 3 * 4 * 262144, "footprint: three float arrays")
t.is(r.time_ms, nil, "sim does not claim a time")
t.is(r.correct, nil, "sim does not claim a correctness check")

for stride, sectors in pairs({[1] = 4, [2] = 8, [4] = 16, [8] = 32, [16] = 32}) do
  t.is(launch("strided", {stride = stride, n = 4194304}).load.sectors_per_request, sectors,
       "strided " .. stride .. ": " .. sectors .. " sectors per request")
end
t.is(launch("copy", {n = 1 << 20}).load.sectors_per_request, 4.0, "copy: 4 sectors per request")
t.is(launch("copy", {n = 1 << 20, vec = 4}).load.sectors_per_request, 16.0, "copy float4: 16")

-- Several launches at once: a list of results, in order.
local many = launch("offset", {{offset = 0, n = 4096}, {offset = 1, n = 4096}, {offset = 8, n = 4096}})
t.is(#many, 3, "launch with a list of params returns a list of results")
t.is(many[2].params.offset, 1, "... in the order given")
t.is(many[2].load.sectors_per_request, launch("offset", {offset = 1, n = 4096}).load.sectors_per_request,
     "... each the same as launched alone")

-- The shorthand means exactly the table form.
local short = load('return launch("strided", <stride=4, n=1024>)')
t.ok(short == nil, "plain load() does not know the shorthand (only warplab's chunks do)")
local long = launch("strided", {stride = 4, n = 1024})
t.is(launch("strided", <stride=4, n=1024>).load.sectors, long.load.sectors, "<stride=4> is {stride=4}")

-- Results print as a block naming the backend and labelling modelled numbers.
local text = tostring(r)
t.ok(text:find("offset  n=262,144 block=256 offset=1", 1, true), "header line lists the params")
t.ok(text:find("5.00 sectors/request", 1, true), "loads line shows sectors per request")
t.ok(text:find("modelled", 1, true), "the block says the numbers are modelled")

-- kernels(), info(), device(), help()
local names = {}
for _, k in ipairs(kernels()) do names[#names + 1] = k.name end
t.is(table.concat(names, ",", 1, 3), "copy,offset,strided", "kernels() lists the registry in order")
t.ok(tostring(kernels()):find("strided", 1, true), "kernels() prints a listing")
local i = info("strided")
t.is(i.params[3].name, "stride", "info lists params in order")
t.is(i.params[3].default, 1, "info gives defaults")
t.is(i.params[2].allowed, "a multiple of 32 from 32 to 1024", "info says what is allowed")
t.ok(i.source:find("__global__", 1, true), "info shows the CUDA source")
t.ok(i.teaches ~= nil and #i.teaches > 10, "info says what the family teaches")
t.ok(tostring(i):find("kernel source", 1, true), "info prints itself")
local d = device()
t.is(d.backend, "sim", "device() names the backend")
t.ok(d.l2_bytes > 0 and d.sm_count > 0 and d.peak_gbs > 0, "device() has sizes and a peak")
t.ok(tostring(d):find("peak", 1, true), "device() prints itself")
t.ok(pcall(help), "help() prints an overview")
t.ok(pcall(help, "launch"), "help('launch') prints a topic")
-- Every global function of warplab's has a topic; a function, a prefix and a colon command find theirs.
local core = debug.getregistry()["warplab.core"]
local function printed_en(fn)
  core.capture(true)
  local ok, why = pcall(fn)
  local text = core.capture(false)
  return ok and text or "error: " .. tostring(why)
end
local standard = {}
for name in ("assert collectgarbage dofile error getmetatable ipairs load loadfile next pairs pcall print rawequal " ..
             "rawget rawlen rawset require select setmetatable tonumber tostring type xpcall warn"):gmatch("%S+") do
  standard[name] = true
end
local without = {}
for name, value in pairs(_G) do
  if type(value) == "function" and not standard[name] and printed_en(function() help(name) end):find("^error") then
    without[#without + 1] = name
  end
end
table.sort(without)
t.ok(#without == 0, "every global function has a help topic (without: " .. table.concat(without, ", ") .. ")")
t.ok(printed_en(function() help(sweep) end):find("^sweep%(name, params%)"), "help(sweep), the function itself, prints sweep's topic")
t.ok(printed_en(function() help("swe") end):find("^sweep%(name, params%)"), "a unique prefix of a topic finds it")
t.raises(function() help("e") end, { "'e' begins several topics: edit, explain, export" }, "a prefix of several topics names them")
t.ok(printed_en(function() help(":lab") end):find("^:lab%s+NAME  open a lab"), "help(':lab') is the colon command's usage")
t.ok(printed_en(function() core.command(":help lab") end):find("^:lab%s+NAME  open a lab"), ":help lab is too")

-- alloc_alignment: modelled here, 256-byte aligned at least.
local blocks = alloc_alignment(4, 1000)
t.is(#blocks, 4, "alloc_alignment makes the allocations asked for")
t.ok(blocks.modelled, "... and says the sim backend modelled them")
local aligned = true
for _, b in ipairs(blocks) do aligned = aligned and b.alignment >= 256 and b.alignment & (b.alignment - 1) == 0 end
t.ok(aligned, "each alignment is a power of two of at least 256")
t.ok(tostring(blocks):find("aligned to 2^", 1, true), "the list prints itself")

-- Every message of the Lua side has both languages, with the same conversions in the same order.
local function conversions(text)
  local list = {}
  for c in text:gmatch("%%[-+ #0]*%d*%.?%d*[%a%%]") do list[#list + 1] = c end
  return table.concat(list, " ")
end
local modules, bad = 0, {}
for module, messages in pairs(require("warplab.text").message_tables) do
  modules = modules + 1
  for key, m in pairs(messages) do
    if type(m.en) ~= "string" or type(m.zh) ~= "string" then
      bad[#bad + 1] = module .. "." .. key .. ": not both en and zh"
    elseif conversions(m.en) ~= conversions(m.zh) then
      bad[#bad + 1] = string.format("%s.%s: %s in en, %s in zh", module, key, conversions(m.en), conversions(m.zh))
    end
  end
end
t.ok(modules >= 9, "every module registers its messages (" .. modules .. ")")
t.ok(#bad == 0, "every message has en and zh with the same conversions")
for _, line in ipairs(bad) do print("#   " .. line) end
local unlabelled = {}
for name, m in pairs(require("warplab.sweep").metrics) do
  if not (m.label_zh and (m.short_zh or not m.short:find("%a%a%a"))) then unlabelled[#unlabelled + 1] = name end
end
t.is(table.concat(unlabelled, ", "), "", "every metric has its label and column heading in Chinese")

-- Under zh: what a student reads first, in Chinese, the columns lining up by display width.
local english_lang = core.lang
core.lang = function() return "zh" end
local function printed(fn)
  core.capture(true)
  local ok, why = pcall(fn)
  local text = core.capture(false)
  return ok and text or "error: " .. tostring(why)
end
local small = launch("offset", {offset = 1, n = 262144})
local card = tostring(small)
t.ok(card:find("sim · 模型估算，不是实测", 1, true), "zh: the card's header says modelled, not measured")
t.ok(card:find("\n  读取       每请求 5.00 个扇区   理想值 4.00   ########.. 80% 有用\n", 1, true) or
     card:find("\n  读取       每请求 5.00 个扇区   理想值 4.00   ████████░░ 80% 有用\n", 1, true),
     "zh: the loads row")
t.ok(card:find("\n             16,384 个请求 · 81,918 个扇区 · 32,766 个缓存行\n", 1, true), "zh: requests · sectors · lines")
t.ok(card:gsub("\n%s+", ""):find("瓶颈：" .. small.model.limit_zh, 1, true) ~= nil,   -- the line may wrap
     "zh: the card names the model's limit in Chinese (" .. small.model.limit_zh .. ")")
local columns = {}
for line in card:gmatch("[^\n]+") do
  local labelled = line:match("^  %S+%s+")
  if labelled then columns[#columns + 1] = core.util.display_width(labelled) end
end
local aligned_rows = #columns > 4
for _, c in ipairs(columns) do aligned_rows = aligned_rows and c == 13 end
t.ok(aligned_rows, "zh: every row's text starts in column 13, by display width")
local rs
printed(function() rs = sweep("offset", {offset = range(0, 2), n = 4096}) end)
t.ok(rs:table_text():find("^  offset  时间 ms  GB/s +读取 扇区/请求  写入 扇区/请求  DRAM 读取 MB\n"), "zh: the sweep table's header")
t.ok(rs:chart_text():find("^每请求读取扇区数（模型估算）随 offset 的变化 — offset\n"), "zh: the chart's title")
local comparison = tostring(compare(launch("strided", {stride = 1}), launch("strided", {stride = 8})))
t.ok(comparison:find("更慢", 1, true) and comparison:find("（时间为模型估算：没有采样可用来判断噪声）", 1, true) and
     comparison:find("读取扇区数 ", 1, true) and comparison:find("  结论", 1, true), "zh: compare's rows and verdicts")
local map = printed(function() show(launch("strided", {stride = 2})) end)
t.ok(map:find("# 已使用，. 已取回未使用，- 未取回", 1, true) or map:find("█ 已使用，░ 已取回未使用，· 未取回", 1, true),
     "zh: show()'s legend")
t.ok(map:gsub("\n *", ""):find("取回的 128/256 字节被使用（50%）", 1, true), "zh: show()'s access line (wrapped to the terminal)")
t.ok(tostring(info("strided")):find("\n  block    整数     默认值 256          ", 1, true), "zh: an info() parameter line")
t.ok(printed(function() help("show") end):find("^show%(r %[, warp%]%) 画出"), "zh: a help topic")
t.ok(printed(function() help() end):find("^warplab 展示"), "zh: help()'s overview")
t.ok(core.banner():find("初次使用？输入 :lab tour。", 1, true), "zh: the banner")
t.raises(function() help("nonsense") end, { "bad argument #1 to 'help' (没有主题 'nonsense'；主题有：" },
         "zh: an argument error keeps lauxlib's prefix and explains in Chinese")
require("warplab.progress").use_memory()
t.ok(printed(core.labs.list):find("\n  alignment    对齐与第五个扇区 +5 步 · 约 15 分钟\n"), "zh: a lab's status in :labs, with its minutes")
core.lang = english_lang
t.ok(tostring(launch("copy")):find("sim · modelled, not measured", 1, true), "back in English")
t.done()
