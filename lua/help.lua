-- help.lua (warplab.help): help([topic]): the overview, and each topic in
-- both languages (the one list of topics, which completion and the docs'
-- test read); a topic by a unique prefix of its name or by the function
-- itself (help(launch)), and a colon command by its line of the shell's
-- table of them.
local core = require "warplab.core"
local text = require "warplab.text"

local fmt, text_in, messages_of, quote, wrap = text.fmt, text.text_in, text.messages, text.quote, text.wrap

local messages = {
  topic_expected = { en = "bad argument #1 to 'help' (topic name expected, got %s)",
                     zh = "bad argument #1 to 'help' (需要主题名，得到 %s)" },
  ambiguous_topic = { en = "bad argument #1 to 'help' (%s begins several topics: %s)",
                      zh = "bad argument #1 to 'help' (%s 是多个主题的开头：%s)" },
  unknown_topic = { en = "bad argument #1 to 'help' (unknown topic %s; topics: %s)",
                    zh = "bad argument #1 to 'help' (没有主题 %s；主题有：%s)" },
  topic_name = { en = "%s", zh = "'%s'" },
  list_separator = { en = ", ", zh = "、" },
}
local say = messages_of("help", messages)

-- Each topic of help(topic), and the overview of help(), in both languages.
-- The declaration help("kernel") shows, the same in both languages (it runs as written).
local KERNEL_EXAMPLE = [[
  kernel { name = "mycopy",
           source = [==[
           __global__ void mycopy(const float *in, float *out, int n)
           { int i = blockIdx.x * blockDim.x + threadIdx.x;
             if (i < n) out[i] = in[i]; }]==],
           params = { n = 1 << 20 },
           buffers = { ["in"] = { type = "float", count = "n" },
                       out = { type = "float", count = "n", output = true } },
           args = { "in", "out", "n" },
           grid = function(p) return (p.n + 255) // 256 end, block = 256 }
  launch("mycopy", {n = 4096})
]]

local topics = {
  launch = { en = [[
launch(name, params) runs one kernel and returns a result table.
  launch("offset", {offset=1})       params you leave out take their defaults
  launch("strided", <stride=4>)      the same as {stride=4}
  r = launch("copy"); r.load.sectors_per_request
  launch("offset", {{offset=0}, {offset=1}})   several at once: a list of results
On a GPU it measures time, checks the output against a CPU reference and
reads hardware counters; without one (or with --sim) the access model
gives the traffic. can(name, params) says whether this GPU can run a launch
(and why not: cp_async needs sm_80).]], zh = [[
launch(name, params) 启动一个核函数，返回一个结果表。
  launch("offset", {offset=1})       没写的参数取默认值
  launch("strided", <stride=4>)      与 {stride=4} 相同
  r = launch("copy"); r.load.sectors_per_request
  launch("offset", {{offset=0}, {offset=1}})   一次启动多个：得到结果列表
在 GPU 上，它测量时间，把输出与 CPU 参考结果对比，并读取硬件计数器；
没有 GPU（或用了 --sim）时，由访问模型给出访存流量。can(name, params)
说明这块 GPU 能否运行某次启动（不能时说明原因：cp_async 需要 sm_80）。]] },
  result = { en = [[
A result table has: kernel, params, backend ("gpu" or "sim"), useful_bytes,
footprint_bytes, load and store (requests, sectors, lines, bytes,
sectors_per_request, ideal, useful_fraction, source), model (the access
model's load and store), and on a GPU time_ms, time_min_ms, time_max_ms,
time_iqr, samples, bandwidth_gbs, cache, correct (and mismatch when wrong).
A kernel declared with kernel{} and a reference also has correct on the
model, with checked_elements of output_elements (a large launch's: a
sample), or r.unchecked: why not.
docs/results.md describes each field.]], zh = [[
结果表包含：kernel、params、backend（"gpu" 或 "sim"）、useful_bytes、
footprint_bytes、load 和 store（requests、sectors、lines、bytes、
sectors_per_request、ideal、useful_fraction、source）、model（访问模型给出的
load 和 store），在 GPU 上还有 time_ms、time_min_ms、time_max_ms、time_iqr、
samples、bandwidth_gbs、cache、correct（输出错误时还有 mismatch）。
用 kernel{} 声明并带参考函数的核函数在模型上也有 correct，以及
checked_elements 和 output_elements（大的启动只检查一个抽样），
或者 r.unchecked：为什么没有检查。
每个字段的说明见 docs/results.md。]] },
  kernels = { en = [[
kernels() lists the kernel families; info(name) shows one: its parameters
with type, default and allowed values, what it teaches, and its CUDA source.]], zh = [[
kernels() 列出所有核函数族；info(name) 显示其中一个：参数（类型、默认值和允许的取值）、
教学要点，以及它的 CUDA 源码。]] },
  device = { en = [[
device() describes the GPU (or, in sim mode, the modelled one): name,
compute_capability, sm_count, l2_bytes, memory_bytes, bus_width_bits,
memory_clock_mhz, peak_gbs, sm_clock_mhz, and on a GPU copy_gbs: the
measured copy ceiling (measure_copy() measures it again).]], zh = [[
device() 描述这块 GPU（sim 模式下是模型估算的那块）：name、compute_capability、
sm_count、l2_bytes、memory_bytes、bus_width_bits、memory_clock_mhz、peak_gbs、
sm_clock_mhz，在 GPU 上还有 copy_gbs：实测的复制上限（measure_copy() 重新测量）。]] },
  show = { en = [[
show(r [, warp]) draws one warp of a launch (warp 0 by default): each memory
instruction, each 128-byte line it touches as four 32-byte sectors of eight
4-byte cells, marking the bytes the lanes used, the bytes fetched with them
and the sectors not fetched, with the lanes in each line and the totals.
r.map holds the same drawing of warp 0 as text.]], zh = [[
show(r [, warp]) 画出一次启动中一个 warp 的访问图（默认 warp 0）：每条访存指令
碰到的每个 128 字节缓存行画成 4 个 32 字节扇区，每个扇区 8 格、每格 4 字节；
标出线程用到的字节、随之取回的字节和没有取回的扇区，并列出每个缓存行里的线程和总数。
r.map 以文本形式保存 warp 0 的同一张 warp 访问图。]] },
  lines = { en = [[
lines([r]) shows where a launch's traffic comes from: the launch run again
on the emulator, each source line that touches memory with its requests,
sectors (or shared wavefronts) per request against the ideal and its share,
the worst lines marked, and why: lanes a stride apart, a misaligned start,
a gather, bank conflicts, lanes on one atomic address, with the fix.
r: a result (default: the last launch), or lines("name", {params}). :lines
does the same for the last launch.
  r = launch("transpose", {variant = "shared"}); lines(r)]], zh = [[
lines([r]) 显示一次启动的访存流量来自哪里：在模拟器上重新运行这次启动，列出每一
条访问内存的源代码行：请求数、每个请求的扇区数（或共享内存 wavefront 数）与理想
值的对比、所占比例，标出最差的行并说明原因：相邻线程相隔一个步长、起始地址没有
对齐、gather、存储体冲突、多个线程更新同一个原子地址，以及改法。
r：一个结果（默认是最近一次启动），或 lines("名字", {参数})。:lines 对最近一次
启动做同样的事。
  r = launch("transpose", {variant = "shared"}); lines(r)]] },
  sass = { en = [[
sass([r | kernel] [, {arch=, all=}]) shows the machine code (SASS) the GPU
runs for a kernel, by source line: each memory instruction, its space,
access and bytes a lane. For a launch (r, the last one by default) each
has its counts beside it, as lines() counts a line, the worst diagnosed.
It shows what ptxas did to the PTX: loads merged into LDS.128, loops
unrolled, arrays in local memory. arch: "sm_90" (a declared kernel's;
default: this device's); all = true shows every instruction. Needs NVRTC
and NVIDIA's nvdisasm, no GPU.
  sass(r)   sass("my_transpose")   sass(r, {all = true})]], zh = [[
sass([r | 核函数] [, {arch=, all=}]) 按源代码行显示 GPU 为一个核函数实际运行的
机器码（SASS）：每条访存指令、它访问的空间、访问类型和每个线程的字节数。
对一次启动（r，默认是最近一次），每条指令旁边是它的计数，与 lines() 对一行的
计数相同，最差的给出原因。它能看出 ptxas 对 PTX 做了什么：加载合并成
LDS.128、循环展开、数组放进本地内存。arch：如 "sm_90"（用 kernel{} 声明的
核函数；默认是当前设备的）；all = true 显示全部指令。需要 NVRTC 和 NVIDIA 的
nvdisasm，不需要 GPU。
  sass(r)   sass("my_transpose")   sass(r, {all = true})]] },
  counters = { en = [[
On a GPU each launch also reads hardware counters in one counted run after
the timed samples: result.counters holds each value with its Nsight Compute
metric name, and load/store take their requests and sectors from the
hardware. explain("sectors_per_request") (or any counter's name) says what a
number means. config{counters=false} turns them off.]], zh = [[
在 GPU 上，每次启动在计时样本之后还会做一次带剖析的运行，读取硬件计数器：
result.counters 保存每个值及其 Nsight Compute 指标名，load/store 的请求数和
扇区数取自硬件。explain("sectors_per_request")（或任一计数器的名字）说明一个
数字的含义。config{counters=false} 关闭计数器。]] },
  config = { en = [[
config{cache="warm"|"cold", min_samples=10, budget_ms=500, check=true, counters=true,
       model="formula"|"emulator"}
changes how launches measure for the rest of the session and returns the
options; the same keys in one launch's params change that launch only:
  launch("copy", {n=2^16, cache="warm"})]], zh = [[
config{cache="warm"|"cold", min_samples=10, budget_ms=500, check=true, counters=true,
       model="formula"|"emulator"}
改变本次会话之后所有启动的测量方式，并返回当前选项；同样的键写在某次启动的
参数里，则只改变那一次启动：
  launch("copy", {n=2^16, cache="warm"})]] },
  kernel = { en = [[
kernel{...} declares a kernel of your own, written in CUDA C, and compiles it:
]] .. KERNEL_EXAMPLE .. [[Then launch, sweep, compare and info take it like a built-in kernel; the
emulator runs its own compiled code to count its traffic, and on a GPU it
is measured there too, its outputs checked against the emulator's. Counts,
grids and blocks may be numbers, param names or functions of the params;
docs/shell.md has every field. :edit NAME (or edit("NAME")) opens its
source in $VISUAL or $EDITOR and compiles it again when you quit;
edit("NAME", "file.cu") takes the source from a file instead.]], zh = [[
kernel{...} 声明一个你自己用 CUDA C 写的核函数，并编译它：
]] .. KERNEL_EXAMPLE .. [[之后 launch、sweep、compare 和 info 都像对待内置核函数一样对待它；模拟器运行它自己
编译出的代码来统计访存流量；有 GPU 时它也在 GPU 上测量，输出与模拟器的输出比对。
元素个数、网格和线程块可以是数字、参数名，或参数的函数。每个字段的说明见 docs/shell.md。
:edit 名字（或 edit("名字")）在 $VISUAL 或 $EDITOR 中打开它的源代码，退出编辑器后重新编译；
edit("名字", "file.cu") 则从文件读取源代码。]] },
  can = { en = [[
can(name, params) is true when the device (or the profile the model
describes) can run the launch; else false and why in one line:
  can("prefetch", {variant = "cp_async"})   on a T4: cp.async needs sm_80
Bad parameters are errors, as in launch.]], zh = [[
can(名字, 参数) 在设备（或模型所描述的设备配置）能运行这次启动时返回 `true`；
否则返回 `false` 和一行原因：
  can("prefetch", {variant = "cp_async"})   在 T4 上：cp.async 需要 sm_80
参数有误时会报错，与 launch 一样。]] },
  sweep = { en = [[
sweep(name, params) launches every value of one or two list-valued params
and prints a table and a chart; it returns the results list.
  sweep("offset", {offset = range(0, 32)})
  sweep("strided", {stride = pow2(0, 5), n = 1 << 20, y = "bandwidth"})
x= and y= pick the axes; rs:column("load.sectors") gives one column.
Ctrl-C stops after the current launch and keeps what was measured.]], zh = [[
sweep(名字, 参数) 对一到两个取列表值的参数的每个值各启动一次，打印表格和图表，
并返回结果列表。
  sweep("offset", {offset = range(0, 32)})
  sweep("strided", {stride = pow2(0, 5), n = 1 << 20, y = "bandwidth"})
x= 和 y= 选择坐标轴；rs:column("load.sectors") 取出一列。
Ctrl-C 在当前这次启动结束后停止，并保留已测得的结果。]] },
  range = { en = [[
range(a, b [, step]) is the list a, a + step, ..., up to b (step 1 by
default): the values of a swept parameter.
  sweep("offset", {offset = range(0, 32, 4)})]], zh = [[
range(a, b [, 步长]) 是列表 a, a + 步长, ……，直到 b（步长默认值为 1）：
扫描一个参数时用的取值。
  sweep("offset", {offset = range(0, 32, 4)})]] },
  pow2 = { en = [[
pow2(a, b) is the list 2^a, 2^(a+1), ..., 2^b: sizes and strides that
double.
  sweep("strided", {stride = pow2(0, 5)})   strides 1, 2, 4, ... 32]], zh = [[
pow2(a, b) 是列表 2^a, 2^(a+1), ……，2^b：逐次翻倍的大小和步长。
  sweep("strided", {stride = pow2(0, 5)})   步长 1、2、4……32]] },
  compare = { en = [[
compare(a, b, ...) sets results side by side: each metric, its ratio to
the first, and a verdict (faster, slower, same, more, fewer). On a GPU the
time's verdict comes from the samples' spreads: "same (within noise)" when
they overlap.
  compare(launch("offset", {offset = 0}), launch("offset", {offset = 1}))]], zh = [[
compare(a, b, ...) 把几个结果并排列出：每项指标、它与第一个结果的比值，以及结论
（更快、更慢、相同、更多、更少）。在 GPU 上，时间的结论来自各次采样的分布：
分布重叠时是“相同（在噪声范围内）”。
  compare(launch("offset", {offset = 0}), launch("offset", {offset = 1}))]] },
  plot = { en = [[
plot(results, {file = "out.svg", x =, y =, title =}) writes a chart of a
list of results: a self-contained SVG, or a PNG through gnuplot when it is
installed.
  plot(sweep("offset", {offset = range(0, 32)}), {file = "offset.svg"})]], zh = [[
plot(结果列表, {file = "out.svg", x =, y =, title =}) 把一组结果画成图表：
独立的 SVG 文件，安装了 gnuplot 时也可以是 PNG。
  plot(sweep("offset", {offset = range(0, 32)}), {file = "offset.svg"})]] },
  export = { en = [[
export(results, "file.csv") or export(results, "file.json") writes every
field of a result or a list of results, with the device (JSON: with the
units), for a spreadsheet or a script.
  export(sweep("offset", {offset = range(0, 32)}), "offset.csv")]], zh = [[
export(结果, "file.csv") 或 export(结果, "file.json") 把一个结果或一组结果的
每个字段连同设备信息写入文件（JSON 还带单位），供电子表格或脚本使用。
  export(sweep("offset", {offset = range(0, 32)}), "offset.csv")]] },
  record = { en = [[
record("session.json") keeps every input from then on (code, colon
commands, what they printed and returned, lab answers); record() writes
them and stops: a session to hand in.]], zh = [[
record("session.json") 从此刻起记下每次输入（代码、冒号命令、它们打印和返回的内容、
实验答案）；record() 写入文件并停止记录：一份可以提交的会话记录。]] },
  explain = { en = [[
explain(term) says what a counter or derived number means, in two
sentences, and its Nsight Compute metric; explain() lists the terms.
  explain("sectors_per_request")]], zh = [[
explain(术语) 用两句话说明一个计数器或导出数字的含义，以及对应的 Nsight Compute
指标；explain() 列出所有术语。
  explain("sectors_per_request")]] },
  info = { en = [[
info(name) is a kernel family's declaration: what it teaches, its params
(type, default, what is allowed, the choices) and its CUDA source.
  info("strided").params   info("my_kernel").source]], zh = [[
info(名字) 是一个核函数族的声明：它教什么、它的参数（类型、默认值、允许的取值、
可选值）以及 CUDA 源代码。
  info("strided").params   info("my_kernel").source]] },
  edit = { en = [[
edit("name") (or :edit name) opens a kernel you declared with kernel{} in
$VISUAL or $EDITOR, and compiles it again when you quit the editor; in a
lab step with a kernel to write, :edit alone opens that one.
edit("name", "file.cu") takes the source from a file instead.]], zh = [[
edit("名字")（或 :edit 名字）在 $VISUAL 或 $EDITOR 中打开你用 kernel{} 声明的
核函数，退出编辑器后重新编译；在有核函数要写的实验步骤中，只输入 :edit 就会打开那个核函数。
edit("名字", "file.cu") 则从文件读取源代码。]] },
  answer = { en = [[
answer(value) (or :answer value) answers the open lab step's question;
for a goal, answer() checks your last launch against it.]], zh = [[
answer(值)（或 :answer 值）回答当前实验步骤的问题；对于目标，answer() 用你最近
一次启动来检查它。]] },
  alloc_alignment = { en = [[
alloc_alignment(count [, bytes]) makes count device allocations and shows
each one's address and the largest power of two it is aligned to
(cudaMalloc promises 256); modelled without a GPU.]], zh = [[
alloc_alignment(个数 [, 字节数]) 在设备上分配若干块内存，给出每块的地址以及它对齐到的
最大的 2 的幂（`cudaMalloc` 保证 256）；没有 GPU 时由模型给出。]] },
  measure_copy = { en = [[
measure_copy() measures the copy ceiling again on a GPU (a 1 GiB
cudaMemcpy from device to device, bytes read + written) and returns GB/s;
warplab caches it per device and driver.]], zh = [[
measure_copy() 在 GPU 上重新测量复制上限（1 GiB 的设备到设备 `cudaMemcpy`，
读取加写入的字节数），返回 GB/s；warplab 按设备和驱动缓存这个值。]] },
  help = { en = [[
help() is the overview; help("topic") one topic, help(launch) the help of
a function, and any unique prefix of a topic works (help("swe")).
:help :lab (or :help lab) says what a colon command does.]], zh = [[
help() 是概览；help("主题") 显示一个主题，help(launch) 显示一个函数的帮助，
主题名的唯一前缀也可以（help("swe")）。`:help :lab`（或 `:help lab`）说明一个冒号命令。]] },
  commands = { en = [[
Colon commands at the prompt (unique prefixes work, so :q quits). Ctrl-C
stops what is running; Ctrl-D leaves.
%s]], zh = [[
提示符下的冒号命令（唯一的前缀也行，所以 :q 就能退出）。Ctrl-C 停止正在运行的
内容；Ctrl-D 离开。
%s]] },
}
messages_of("help topics", topics)

local overview = { en = [[
warplab shows how GPU memory access patterns become memory traffic.
  launch("offset", {offset=1})   run a kernel; the result prints itself
  kernels()                      the kernel families; info("strided") for one
  kernel{...}                    a kernel of your own, in CUDA C: help("kernel")
  device()                       the GPU, or the modelled one
  explain("sectors_per_request") what a number means, and its Nsight Compute metric
  show(r)                        the warp map of warp 0 of a result r (show(r, 5) for warp 5)
  sweep("offset", {offset = range(0, 32)})   a table and a chart over a parameter
  compare(a, b), plot(rs, {file="out.svg"}), export(rs, "out.csv"), record("session.json")
  :labs, :lab tour               the labs: lessons whose questions are checked against your runs
  help("launch")                 more on a topic: %s
Tab completes names, including kernel names inside launch(".]], zh = [[
warplab 展示 GPU 的内存访问模式如何变成内存流量。
  launch("offset", {offset=1})   启动一个核函数；结果会自己打印出来
  kernels()                      所有核函数族；info("strided") 查看其中一个
  kernel{...}                    你自己用 CUDA C 写的核函数：help("kernel")
  device()                       这块 GPU，或模型估算的那块
  explain("sectors_per_request") 一个数字的含义，以及对应的 Nsight Compute 指标
  show(r)                        结果 r 中 warp 0 的 warp 访问图（show(r, 5) 看 warp 5）
  sweep("offset", {offset = range(0, 32)})   对一个参数扫描，给出表格和图表
  compare(a, b)、plot(rs, {file="out.svg"})、export(rs, "out.csv")、record("session.json")
  :labs、:lab tour               实验：其中的问题用你自己的运行结果来检查
  help("launch")                 某个主题的更多内容，主题有 %s
Tab 键补全名字，包括 launch() 引号里的核函数名。]] }
messages_of("help()", { overview = overview })

-- help_topics(): the topics' names, sorted (for completion).
local function help_topics()
  local names = {}
  for name in pairs(topics) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- The topics' names, in order, as a message lists them: the topics table is the one list.
local function topic_names()
  local names = help_topics()
  for i, name in ipairs(names) do names[i] = say("topic_name", name) end
  return table.concat(names, say("list_separator"))
end

-- A colon command's line of the commands table (":lab" or "lab", or a unique prefix of one), or nil.
local function command_line(name)
  local wanted, found, count = name:gsub("^:?", ":"), nil, 0
  for line in core.commands_text():gmatch("[^\n]+") do
    local command = line:match("^%s*(:%S+)")
    if command == wanted then return line end
    if command and command:sub(1, #wanted) == wanted then found, count = line, count + 1 end
  end
  return count == 1 and found or nil
end

-- The topic a name is, or a unique prefix of (help("swe") is sweep), or
-- nil and the topics it is a prefix of when there are several.
local function topic_of(name)
  if topics[name] then return name end
  local found = {}
  for topic in pairs(topics) do
    if topic:sub(1, #name) == name then found[#found + 1] = topic end
  end
  table.sort(found)
  if #found == 1 then return found[1] end
  return nil, #found > 1 and found or nil
end

-- help([topic]): an overview, or one topic: by name or a unique prefix of
-- one, a global function itself (help(launch)), or a colon command
-- (help(":lab"), :help lab). The commands topic lists them from the
-- shell's table of colon commands, as :help does.
local function help(topic)
  if topic == nil then return print(wrap(fmt(text_in(overview), topic_names()))) end
  if type(topic) == "function" then
    for name, value in next, _G do if value == topic and topics[name] then topic = name end end
  end
  if type(topic) ~= "string" then error(say("topic_expected", quote(topic)), 2) end
  local name, several
  if not topic:find("^:") then name, several = topic_of(topic) end
  if several then error(say("ambiguous_topic", quote(topic), table.concat(several, say("list_separator"))), 2) end
  local command = not name and command_line(topic)
  if command then return print((command:gsub("^%s+", ""))) end
  if not name then error(say("unknown_topic", quote(topic), topic_names()), 2) end
  local text = topics[name]
  print(wrap(name == "commands" and fmt(text_in(text), (core.commands_text():gsub("\n$", ""))) or text_in(text)))
end

return { help = help, help_topics = help_topics }
