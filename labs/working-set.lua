-- working-set: bandwidth against the size of the data a kernel keeps coming
-- back to: the L1 and L2 edges (measured on a GPU; the model's figures may
-- differ), reuse distance, LRU and cyclic passes, and why the reference
-- notes' small experiment timed the cache.

lab {
  title = { en = "Working sets: the L1 and L2 edges", zh = "工作集：L1 与 L2 的边界" },
  topics = { "working set", "L1", "L2", "reuse distance", "LRU", "warm and cold cache" },
  minutes = 20,   -- about how long a student takes, by its authors' estimate
}

-- n = 10,324,448 (a multiple of 32): for every power-of-two buffer from 4 KiB
-- to 1 GiB, a thread's eight loads fall at least 1/16 of the buffer apart, so
-- an element is read again only after about one buffer's worth of loads.
local N = 10324448

local MiB = 1 << 20

step {
  text = {
    en = [[A working set is the data a kernel keeps coming back to within a stretch of time. If it fits one SM's L1, repeated loads are answered inside the SM; if it fits L2, on chip; otherwise each pass goes to DRAM. The chapter estimates it as active threads x distinct bytes per thread, and its exercise 7 takes 2048 threads reading 8 floats each, on a GPU with a 6 MB L2: 2048 x 8 x 4 bytes = 64 KiB. The launch below passes 2048 threads over a 64 KiB buffer; device() shows this GPU's L2.]],
    zh = [[工作集是一个核函数在一段时间里反复回头使用的数据。它放得进一个 SM 的 L1，重复的读取就在 SM 内部得到应答；放得进 L2，就在片上；否则每一遍都要去 DRAM。本章把它估算为：活跃线程数 x 每个线程访问的不同字节数。它的第 7 题是 2048 个线程、每个读 8 个 float，GPU 的 L2 为 6 MB：2048 x 8 x 4 字节 = 64 KiB。下面这次启动让 2048 个线程遍历一个 64 KiB 的缓冲区；device() 显示这块 GPU 的 L2。]],
  },
  run = [[r = launch("working_set", {n = 2048, bytes = 65536, cache = "warm"}); d = device(); d]],
  ask = {
    question = { en = "How many 64 KiB working sets would fit side by side in this GPU's L2 (device().l2_bytes)?",
                 zh = "这块 GPU 的 L2（device().l2_bytes）能并排放下多少个 64 KiB 的工作集？" },
    answer = function(ctx) return ctx.device.l2_bytes / 65536 end,
    tolerance = 1,
  },
  hint = {
    { en = "device().l2_bytes / 65536", zh = "device().l2_bytes / 65536" },
  },
  explain = {
    en = [[960 on the H200 (60 MiB); the exercise's 6 MB L2 holds 96 of them, so the answer to the exercise is yes, easily. 64 KiB even fits the L1 of one SM. The estimate counts how much data; the next step shows that when it comes back matters as much.]],
    zh = [[H200（60 MiB）上是 960 个；题目里 6 MB 的 L2 能放 96 个，所以这道题的答案是：放得下，绰绰有余。64 KiB 甚至放得进一个 SM 的 L1。这个估算只数了数据有多少；下一步会看到，数据什么时候被再次使用同样重要。]],
  },
}

step {
  text = {
    en = [[The working_set family: thread i loads the 16-byte elements (i + j*n) mod E for j = 0..7, where E = bytes/16, so a launch makes 128*n bytes of loads over a buffer of `bytes`. Launch it with a 128 MiB buffer, twice the H200's L2, and the default n = 2^23, and look at the loads of warp 0 (the offsets on the left).]],
    zh = [[working_set 族：第 i 个线程读取第 (i + j*n) `mod` E 个 16 字节元素，j = 0..7，E = bytes/16，所以一次启动在 bytes 字节的缓冲区上共读取 128*n 字节。用 128 MiB 的缓冲区（H200 的 L2 的两倍）和默认的 n = 2^23 启动它，看看 warp 0 的各次读取（左边的偏移量）。]],
  },
  run = [[r = launch("working_set", {bytes = 128 << 20, cache = "warm"}); show(r)]],
  ask = {
    question = { en = "How many different elements does thread 0 read in its 8 loads?",
                 zh = "第 0 个线程的 8 次读取一共读了几个不同的元素？" },
    answer = function(ctx)
      local p = ctx.result.params
      if ctx.result.kernel ~= "working_set" then return nil end
      local elements, seen, count = p.bytes // 16, {}, 0
      for j = 0, 7 do
        local e = (j * (p.n % elements)) % elements
        if not seen[e] then seen[e] = true; count = count + 1 end
      end
      return count
    end,
    tolerance = 0,
  },
  hint = {
    { en = "Compare the offsets of the eight load lines in the map.", zh = "比较图里八段“读取”的偏移量。" },
    { en = "Here n = 2^23 and E = 128 MiB / 16 = 2^23: n mod E = 0.", zh = "这里 n = 2^23，E = 128 MiB / 16 = 2^23：n `mod` E = 0。" },
  },
  claims = {
    { text = "at 128 MiB the default n (each thread re-reads one element) runs at least 1.3 times the bandwidth of n = 10,324,448 (loads a buffer apart)",
      gpu = true,
      holds = function(ctx)
        local spread = launch("working_set", {bytes = 128 << 20, n = N, cache = "warm"})
        return bandwidth_of(ctx.result) >= 1.3 * bandwidth_of(spread)
      end },
  },
  explain = {
    en = [[One, eight times: n is a multiple of E, so every thread reads its own element again and again, a few cycles apart. Any cache serves that, whatever the buffer's size: what must stay on chip is only what the threads in flight are using, a few MB at most, not 128 MiB. A working set is the data reused within the reuse distance, not the allocation. (The model's DRAM estimate, each byte of the buffer once, is right here for the same reason.)]],
    zh = [[只有 1 个，读了 8 次：n 是 E 的倍数，所以每个线程一次又一次地读自己那个元素，前后只隔几个周期。不管缓冲区多大，任何缓存都能应付：需要留在片上的只是正在执行的线程用到的数据，最多几 MB，而不是 128 MiB。工作集是在复用距离之内被再次使用的数据，而不是分配的内存大小。（模型的 DRAM 估算——缓冲区每个字节读一次——在这里恰好是对的，原因相同。）]],
  },
}

step {
  text = {
    en = [[To make the buffer itself the working set, the reuse must be a buffer apart. With n = 10,324,448 (a multiple of 32) a thread's eight loads land at least a sixteenth of the buffer apart for every power-of-two size from 4 KiB to 1 GiB, so an element comes back only after about the whole buffer has been read: show(r) draws warp 0's loads spread over it. Now every pass after the first can come from a cache only if the whole buffer stays there.]],
    zh = [[要让缓冲区本身成为工作集，复用之间就得隔开整个缓冲区。取 n = 10,324,448（32 的倍数）时，对于从 4 KiB 到 1 GiB 的每个 2 的幂大小，一个线程的八次读取至少相隔缓冲区的十六分之一，所以一个元素要等差不多整个缓冲区都读过之后才会再被读到：show(r) 能画出 warp 0 的读取分散在整个缓冲区里。这样，第一遍之后的每一遍，只有整个缓冲区都留在缓存里时才能从缓存读。]],
  },
  run = [[r = launch("working_set", {bytes = 16 << 20, n = 10324448, cache = "warm"}); r]],
  ask = {
    question = { en = "How many times over does this launch read its 16 MiB buffer (bytes loaded / buffer bytes)?",
                 zh = "这次启动把它的 16 MiB 缓冲区读了多少遍（读取字节数 / 缓冲区字节数）？" },
    answer = function(ctx)
      local r = ctx.result
      return r.kernel == "working_set" and r.load.bytes / r.params.bytes or nil
    end,
    tolerance = 0.5,
  },
  hint = {
    { en = "r.load.bytes is what the lanes asked for; r.params.bytes is the buffer.", zh = "r.load.bytes 是各线程请求的字节数；r.params.bytes 是缓冲区大小。" },
  },
  claims = {
    { text = "the model reads each 64-byte block of the working_set buffer once (cold L2) while it fits half the device's L2, whatever the number of passes, and again when it is past 0.6 of it (the model lets a launch keep 0.55 of the L2)",
      holds = function(ctx)
        local r = ctx.result
        local once = r.model.dram.read_bytes >= r.params.bytes and r.model.dram.read_bytes < r.params.bytes + 2 * MiB
        return r.params.bytes <= 0.5 * ctx.device.l2_bytes and once or r.params.bytes > 0.6 * ctx.device.l2_bytes and
               r.model.dram.read_bytes > 2 * r.params.bytes
      end },
  },
  explain = {
    en = [[About 79 passes. Only the first has to come from DRAM, if the 16 MiB stays in L2 between passes. That is what the model's DRAM line says on a device whose L2 keeps the 16 MiB (16.8 MB read: the buffer once); on one whose L2 keeps less, it reads most passes again. The model lets one launch keep only 0.55 of an L2 (33 MiB of the H200's 60), because that is what the H200's own DRAM counters show (2026-12-02, the default n): a 32 MiB working set read 36 MB from DRAM, its buffer once, but a 48 MiB one, below the 60 MiB L2, already read 356 MB, and an 80 MiB one 671 MB. For the same reads the 80 MiB working set took 1.77 times as long as the 48 MiB one; the model gives about 1.73.]],
    zh = [[大约 79 遍。只要这 16 MiB 在两遍之间一直留在 L2 里，就只有第一遍必须从 DRAM 读。在 L2 留得住这 16 MiB 的设备上，模型的 DRAM 一行正是这样说的（读 16.8 MB：缓冲区读一次）；在 L2 留得更少的设备上，大部分遍数要重新读。模型只让一次启动留住 L2 的 0.55（H200 的 60 MiB 中的 33 MiB），因为 H200 自己的 DRAM 计数器显示的就是这样（2026-12-02，默认的 n）：32 MiB 的工作集从 DRAM 读了 36 MB，缓冲区只读一次；而 48 MiB 的工作集虽然小于 60 MiB 的 L2，已经读了 356 MB，80 MiB 的读了 671 MB。同样多的读取，80 MiB 工作集用的时间是 48 MiB 的 1.77 倍；模型给出约 1.73 倍。]],
  },
}

step {
  text = {
    en = [[Sweep the buffer from 4 KiB to 1 GiB, with cache = "warm" so that L2 keeps what the previous run left (a flushed L2 would make the first pass pay DRAM prices every time). On a GPU the chart shows measured bandwidth: high while the buffer fits an SM's L1 (the H200's L1 shares 256 KB per SM with shared memory), lower while it fits L2, lowest past L2. The chart marks the L2 size. On the sim backend the model's L1 keeps only what one block's warps share, not what earlier passes left, so its line has no L1 edge; it has an L2 one: past the share of the L2 it lets a launch keep (0.55 of it), every pass reads much of the buffer from DRAM again, and the line drops. Here, reason from the sizes.]],
    zh = [[把缓冲区从 4 KiB 扫到 1 GiB，用 cache = "warm"，让 L2 保留上一次运行留下的数据（清空的 L2 会让每次的第一遍都付 DRAM 的代价）。在 GPU 上图里是实测带宽：缓冲区放得进一个 SM 的 L1 时最高（H200 每个 SM 的 256 KB 由 L1 和共享内存共用），放得进 L2 时低一些，超过 L2 时最低。图上标出了 L2 的大小。在 sim 后端上，模型的 L1 只保留一个线程块内各 warp 共享的数据，不保留前几遍留下的，所以它的曲线没有 L1 的边界；但有 L2 的边界：超过模型让一次启动留住的那部分 L2（L2 的 0.55）之后，每一遍都要从 DRAM 重新读缓冲区的很大一部分，曲线随之下降。在这里，请根据大小来推理。]],
  },
  run = [[s = sweep("working_set", {bytes = pow2(12, 30), n = 10324448, cache = "warm", y = "bandwidth"})]],
  ask = {
    question = { en = "What is the largest swept buffer, in MiB, that fits in this GPU's L2?",
                 zh = "扫过的缓冲区里，放得进这块 GPU 的 L2 的最大一个是多少 MiB？" },
    answer = function(ctx)
      local best = extreme(ctx.results, "bytes", function(r)
        return r.kernel == "working_set" and r.params.bytes <= ctx.device.l2_bytes
      end, true)
      return best and best / MiB
    end,
    tolerance = 0, unit = "MiB",
  },
  hint = {
    { en = "device().l2_bytes / 2^20 gives the L2 in MiB; the sweep doubles from 4 KiB.", zh = "device().l2_bytes / 2^20 就是以 MiB 计的 L2；扫描从 4 KiB 开始每次翻倍。" },
  },
  claims = {
    { text = "a 32 KiB working set (L1) runs at least 1.15 times the bandwidth of a 16 MiB one (L2)", gpu = true,
      holds = function(ctx)
        local l1, l2 = find(ctx.results, {bytes = 32 * 1024}), find(ctx.results, {bytes = 16 * MiB})
        return bandwidth_of(l1) >= 1.15 * bandwidth_of(l2)
      end },
    { text = "a 16 MiB working set (L2) runs at least 1.25 times the bandwidth of a 1 GiB one (DRAM)", gpu = true,
      holds = function(ctx)
        local l2, dram = find(ctx.results, {bytes = 16 * MiB}), find(ctx.results, {bytes = 1024 * MiB})
        return bandwidth_of(l2) >= 1.25 * bandwidth_of(dram)
      end },
    { text = "L1 answers over half the loads of a 32 KiB working set; L2 over 80% of a 16 MiB one's and under half of a 1 GiB one's",
      gpu = true, counters = true,
      holds = function(ctx)
        local l1, l2, dram = find(ctx.results, {bytes = 32 * 1024}), find(ctx.results, {bytes = 16 * MiB}),
                             find(ctx.results, {bytes = 1024 * MiB})
        if not (l1.counters and l2.counters and dram.counters) then error("no hardware counters") end
        return l1.counters.l1_hit_rate.value > 50 and l2.counters.l2_hit_rate.value > 80 and
               dram.counters.l2_hit_rate.value < 50
      end },
  },
  explain = {
    en = [[32 MiB on the H200 (64 MiB is past its 60 MiB L2). So on a GPU expect the L2 plateau to end between 32 and 64 MiB, and the L1 one by 256 KiB at the latest. The L1 edge is per SM: every SM keeps its own copy of a small buffer. Counters tell the same story as the times: explain("l1_hit_rate"), explain("l2_hit_rate").]],
    zh = [[H200 上是 32 MiB（64 MiB 已经超过它 60 MiB 的 L2）。所以在 GPU 上，L2 的平台预计在 32 到 64 MiB 之间结束，L1 的平台最迟在 256 KiB 结束。L1 的边界是按 SM 算的：每个 SM 都保存一份小缓冲区的副本。计数器讲的是同一个故事：explain("l1_hit_rate")、explain("l2_hit_rate")。]],
  },
}

step {
  text = {
    en = [[What happens just past the edge? The chapter notes that a cache evicts the least recently used data, and that a working set passed over in a loop and larger than the cache misses again and again. Think it through before you look at the GPU's numbers for 16, 64 and 128 MiB.]],
    zh = [[刚刚越过边界会怎样？本章提到缓存会替换最近最少使用（`LRU`）的数据，而在循环里反复遍历、又比缓存大的工作集会一次又一次地失效。先想清楚，再看 GPU 在 16、64 和 128 MiB 上的数字。]],
  },
  run = [[s = launch("working_set", {{bytes = 16 << 20, n = 10324448, cache = "warm"},
                              {bytes = 64 << 20, n = 10324448, cache = "warm"},
                              {bytes = 128 << 20, n = 10324448, cache = "warm"}})
c = compare(s[1], s[2], s[3]); c]],
  ask = {
    question = { en = "A loop reads a buffer 1.5 times the size of an LRU cache, in the same order, 8 times. What share of the reads after the first pass hit the cache?",
                 zh = "一个循环按同样的顺序把一个 1.5 倍于 `LRU` 缓存大小的缓冲区读 8 遍。第一遍之后的读取有多少命中缓存？" },
    choices = {
      { en = "About two thirds: the cache holds two thirds of the buffer.", zh = "大约三分之二：缓存能装下缓冲区的三分之二。" },
      { en = "Almost none: each line is evicted just before it is needed again.", zh = "几乎没有：每条缓存行恰好在再次需要之前被换出。" },
      { en = "All of them: reading in order lets the cache fetch ahead.", zh = "全部命中：按顺序读取让缓存能提前取数据。" },
    },
    answer = 2,
  },
  hint = {
    { en = "Follow one cache line: when is it read, and what does the cache read between that and its next use?", zh = "跟着一条缓存行走：它什么时候被读，在它下一次被用到之前，缓存又读了多少别的数据？" },
    { en = "Between two uses of a line, 1.5 caches' worth of other lines come in. Which line does LRU evict to make room?", zh = "一条缓存行两次被用到之间，进来了 1.5 个缓存那么多的别的行。`LRU` 会换出哪一行来腾地方？" },
  },
  claims = {
    { text = "the model reads the 128 MiB buffer from DRAM at least 5 times over in its 10 passes, and the 16 MiB one once where it fits half the L2",
      holds = function(ctx)
        local small, big = find(ctx.results, {bytes = 16 * MiB}), find(ctx.results, {bytes = 128 * MiB})
        local once = small.model.dram.read_bytes < small.params.bytes + 2 * MiB
        return big.model.dram.read_bytes >= 5 * big.params.bytes and
               (small.params.bytes > 0.5 * ctx.device.l2_bytes or once)
      end },
    { text = "a 128 MiB working set (twice the L2) runs at no more than 0.8 times the bandwidth of a 16 MiB one", gpu = true,
      holds = function(ctx)
        local small, big = find(ctx.results, {bytes = 16 * MiB}), find(ctx.results, {bytes = 128 * MiB})
        return bandwidth_of(big) <= 0.8 * bandwidth_of(small)
      end },
    { text = "at 128 MiB the GPU reads the buffer from DRAM at least 3 times over (about 10 passes)", gpu = true, counters = true,
      holds = function(ctx)
        local big = find(ctx.results, {bytes = 128 * MiB})
        return big.dram.source == "hardware" and big.dram.read_bytes >= 3 * big.params.bytes
      end },
  },
  explain = {
    en = [[Almost none. Under strict LRU the oldest line is the one needed next, so a cyclic pass one byte larger than the cache misses everywhere: the drop at the edge is a cliff, not a slope. Real L2s do not replace in strict LRU order, so on a GPU a buffer just past the L2 keeps some hits; compare the DRAM lines of 64 and 128 MiB there. The model replaces at random too, once the share of the L2 it lets a launch keep is full: on the H200 profile it reads the 16 MiB buffer once, the 64 MiB one about 12 times in its 20 passes (835 MB) and the 128 MiB one about 9 times in its 10 (1.25 GB).]],
    zh = [[几乎没有。在严格的 `LRU` 下，最旧的那条缓存行恰好就是下一条要用的，所以一个比缓存大哪怕一个字节的循环遍历处处失效：边界处是悬崖，不是斜坡。真实的 L2 并不严格按 `LRU` 替换，所以在 GPU 上刚超过 L2 的缓冲区还会保留一些命中；在那里比较 64 和 128 MiB 的 DRAM 行。模型也是随机替换的，只要它让一次启动留住的那部分 L2 已满：在 H200 配置下，它把 16 MiB 的缓冲区只读一遍，64 MiB 的在 20 遍里读约 12 遍（835 MB），128 MiB 的在 10 遍里读约 9 遍（1.25 GB）。]],
  },
}

step {
  text = {
    en = [[Now the reference notes' offset experiment in this light: 2^18 floats, r[i] = a[i] + b[i], three 1 MiB buffers on a card whose L2 is 24 MB. They timed one launch with a host clock right after cudaMemcpy and cudaMemset, which go through L2, so the kernel found much of its input already on chip, and the clock included the launch itself; their later struct timings fell run after run as L2 warmed up. warplab empties L2 before every sample unless cache = "warm", and a result warns (the note line) when its buffers are under twice the L2. Compare both (on the sim backend both times are the model's; what a warm L2 saves is for a GPU to measure).]],
    zh = [[用这个眼光再看参考笔记里的 offset 实验：2^18 个 float，r[i] = a[i] + b[i]，三个 1 MiB 的缓冲区，显卡的 L2 有 24 MB。他们在 `cudaMemcpy` 和 `cudaMemset` 之后立刻用主机时钟给一次启动计时，而这两个操作都经过 L2，所以核函数的输入有很多已经在片上，而且时钟把启动本身也算进去了；他们后来测结构体时，时间一次比一次短，那是 L2 在逐渐变热。warplab 在每次采样前都清空 L2，除非 cache = "warm"；当缓冲区小于 L2 的两倍时，结果会（在“注意”一行）给出警告。比较两者（在 sim 后端上两个时间都是模型的估算；热 L2 能省下多少，要在 GPU 上测）。]],
  },
  run = [[cold = launch("offset", {offset = 0, n = 1 << 18}); warm = launch("offset", {offset = 0, n = 1 << 18, cache = "warm"}); c = compare(cold, warm); c]],
  ask = {
    question = { en = "How many times over would this experiment's buffers (r.footprint_bytes) fit in this GPU's L2?",
                 zh = "这个实验的缓冲区（r.footprint_bytes）能在这块 GPU 的 L2 里放下多少份？" },
    answer = function(ctx) return ctx.device.l2_bytes / ctx.result.footprint_bytes end,
    tolerance = 0.5,
  },
  hint = { { en = "device().l2_bytes / warm.footprint_bytes", zh = "device().l2_bytes / warm.footprint_bytes" } },
  claims = {
    { text = "offset with n = 2^18 (3 MiB of buffers) is faster with a warm L2 than with an emptied one", gpu = true,
      holds = function(ctx)
        local cold = launch("offset", {offset = 0, n = 1 << 18})
        local warm = launch("offset", {offset = 0, n = 1 << 18, cache = "warm"})
        return warm.time_ms < cold.time_ms
      end },
  },
  explain = {
    en = [[20 on the H200 (60 MiB / 3 MiB); 8 on the notes' 24 MB card. A kernel that small measures L2 and launch overhead, not DRAM: on a GPU the warm run is the faster one, and neither is near the DRAM bandwidth; on the H200 profile the model, too, finds both limited by the launch's fixed cost. Their DRAM byte counts came from Nsight Compute, which empties the caches before it profiles by default, so those saw a cold L2 even though the timings did not. To time DRAM, use buffers several times the L2 (offset's default n gives 805 MB) and a cold L2.]],
    zh = [[H200 上是 20 份（60 MiB / 3 MiB）；笔记里 24 MB 的显卡上是 8 份。这么小的核函数测到的是 L2 和启动开销，而不是 DRAM：在 GPU 上热缓存的那次更快，而且两次都远不到 DRAM 带宽；在 H200 配置下，模型也认为两次都受启动的固定开销限制。他们的 DRAM 字节数来自 Nsight Compute，它默认在剖析之前清空缓存，所以那些计数看到的是冷 L2，而计时却不是。要测 DRAM，就用好几倍于 L2 的缓冲区（offset 的默认 n 是 805 MB）和冷 L2。]],
  },
}

step {
  text = {
    en = [[Last, aim at one level of the hierarchy on purpose. Change the bytes of this launch (keep n = 10,324,448 and cache = "warm") so that on a GPU its passes would be served by L2: a buffer of at least 1 MiB, too big for any SM's L1, and at most half of device().l2_bytes, leaving room for everything else in L2.]],
    zh = [[最后，有意地瞄准存储层次中的一级。修改这次启动的 bytes（保持 n = 10,324,448 和 cache = "warm"），让它在 GPU 上的各遍读取由 L2 服务：缓冲区至少 1 MiB，比任何 SM 的 L1 都大；至多为 device().l2_bytes 的一半，给 L2 里其他的数据留出空间。]],
  },
  run = [[launch("working_set", {bytes = 256 << 20, n = 10324448, cache = "warm"})]],
  ask = {
    goal = { en = "working_set, n = 10,324,448, warm, 1 MiB <= bytes <= half the L2.",
             zh = "working_set，n = 10,324,448，热缓存，1 MiB <= bytes <= L2 的一半。" },
    solution = [[launch("working_set", {bytes = 8 << 20, n = 10324448, cache = "warm"})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "working_set" and r.params.n == N and r.params.bytes >= MiB and
             r.params.bytes <= ctx.device.l2_bytes / 2 and r.cache == "warm"
    end,
  },
  hint = {
    { en = "Any power of two from 1 MiB (1 << 20) to 16 MiB works on a 60 MiB L2, 8 << 20 for example.",
      zh = "在 60 MiB 的 L2 上，从 1 MiB（1 << 20）到 16 MiB 的任何 2 的幂都可以，比如 8 << 20。" },
  },
  explain = {
    en = [[With bytes = 8 MiB, for example, a GPU reads the buffer about 160 times over at L2 speed. The same question, where will my data be when I come back to it, decides whether tiling a matrix pays: a tile must stay in shared memory or L1 until its last reuse.]],
    zh = [[例如 bytes = 8 MiB 时，GPU 以 L2 的速度把缓冲区读大约 160 遍。同一个问题——我回头再用这些数据时它们在哪里——也决定了矩阵分块是否划算：一个分块必须在最后一次被复用之前一直留在共享内存或 L1 里。]],
  },
}
