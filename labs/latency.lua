-- latency: hiding memory latency. Little's law (bandwidth = bytes in flight
-- / latency) in the model's time estimate, wider loads, occupancy,
-- prefetching into registers and with cp.async, and when prefetching pays.

lab {
  title = { en = "Latency: bytes in flight, occupancy and prefetching", zh = "延迟：在途字节、占用率与预取" },
  topics = { "latency", "Little's law", "bytes in flight", "occupancy", "prefetch", "cp.async" },
}

local LIMITS = { "DRAM bandwidth", "bytes in flight per thread", "L1 sector throughput" }

-- The model's bytes-in-flight coefficient is the H200's, scaled by SM count;
-- on a device with under 2.5 TB/s of DRAM it outruns the DRAM, and the model
-- then finds one float per thread DRAM-bound.
local function dram_too_slow(ctx)
  local d = ctx.device
  if d.peak_gbs < 2500 then
    return { en = string.format("on %s (%.0f GB/s) the model finds a float copy DRAM-bound, not short of bytes in flight", d.name, d.peak_gbs),
             zh = string.format("在 %s（%.0f GB/s）上，模型认为 float 复制受 DRAM 带宽限制，而不是在途字节不足", d.name, d.peak_gbs) }
  end
end

local function without_cp_async(ctx) return lacks(ctx, "cp.async", 80) end

step {
  text = {
    en = [[A load from DRAM takes hundreds of nanoseconds to come back, and a warp that needs the value waits. The GPU keeps the memory busy by having many loads outstanding at once, from many warps. Little's law ties the three together: bandwidth = bytes in flight / latency. To stream at several TB/s with that latency, megabytes must be on their way at every moment, spread over all the SMs. warplab's model estimates a launch's time from this (docs/model.md): its read bandwidth is the smaller, softly, of the DRAM's streaming rate and a rate proportional to the DRAM bytes each thread reads. r.model.limit says which one its estimate hit.]],
    zh = [[从 DRAM 读一个数要几百纳秒才能回来，需要这个值的 warp 只能等。GPU 让内存一直忙碌的办法是：同时有很多读请求在途，来自很多 warp。利特尔定律把三者联系起来：带宽 = 在途字节数 / 延迟。要在这样的延迟下以每秒数 TB 的速度流式读写，每时每刻都得有若干 MB 的数据在路上，分布在所有 SM 上。warplab 的模型就是这样估算一次启动的时间的（docs/model.md）：它的读带宽取两者中较小的那个（平滑地取）：DRAM 的流式速率，以及一个与每个线程读取的 DRAM 字节数成正比的速率。r.model.limit 说明估算碰到的是哪一个限制。]],
  },
  run = [[r = launch("copy", {vec = 1}); r]],
  ask = {
    question = { en = "What does the model say limits a copy of one float per thread?",
                 zh = "模型认为，每个线程复制一个 float 时受什么限制？" },
    choices = {
      { en = "DRAM bandwidth", zh = "DRAM 带宽" },
      { en = "bytes in flight per thread", zh = "每个线程在途的字节数" },
      { en = "L1 sector throughput", zh = "L1 扇区吞吐量" },
    },
    answer = function(ctx)
      for i, limit in ipairs(LIMITS) do
        if ctx.result.model.limit == limit then return i end
      end
    end,
  },
  hint = { { en = "The time line of the result ends with 'limited by ...'.", zh = "结果的“时间”一行末尾写着“瓶颈：……”。" } },
  claims = {
    { text = "the model's estimate for a float copy is limited by bytes in flight per thread", skip = dram_too_slow,
      holds = function(ctx) return ctx.result.model.limit == "bytes in flight per thread" end },
  },
  explain = {
    en = [[Bytes in flight per thread: each thread has a single 4-byte load outstanding, and even a full GPU of such threads does not keep enough bytes on their way to reach the DRAM's rate. The model's H200 coefficients come from measured copies: one float per thread reached 2.68 TB/s of useful bandwidth, one float4 per thread about 4.3.]],
    zh = [[每个线程的在途字节数：每个线程只有一个 4 字节的读请求在途，即使整块 GPU 都是这样的线程，在路上的字节也不够多，达不到 DRAM 的速率。模型的 H200 系数来自实测的复制：每个线程一个 float 时有用带宽是 2.68 TB/s，每个线程一个 float4 时约 4.3 TB/s。]],
  },
}

step {
  text = {
    en = [[The first lever: more bytes per load. copy's vec = 2 or 4 moves a float2 or a float4 per thread: the same sectors per useful byte, two or four times the bytes in flight per thread. Sweep it and chart the bandwidth.]],
    zh = [[第一个杠杆：每次读更多字节。copy 的 vec = 2 或 4 让每个线程搬一个 float2 或 float4：每个有用字节对应的扇区数不变，每个线程的在途字节数变成两倍或四倍。扫描它，画出带宽。]],
  },
  run = [[s = sweep("copy", {vec = {1, 2, 4}, y = "bandwidth"})]],
  ask = {
    question = { en = "Bandwidth with vec = 4 divided by the bandwidth with vec = 1 (two decimals)?",
                 zh = "vec = 4 的带宽除以 vec = 1 的带宽（保留两位小数）？" },
    answer = function(ctx)
      local one, four = find(ctx.results, {vec = 1}), find(ctx.results, {vec = 4})
      return one and four and bandwidth_of(four) / bandwidth_of(one)
    end,
    tolerance = 0.03, relative = true,
  },
  hint = { { en = "The GB/s column of the table, vec 4 over vec 1.", zh = "表里 GB/s 一栏，vec 4 除以 vec 1。" } },
  claims = {
    { text = "the model: vec = 1 is limited by bytes in flight per thread, vec = 4 by DRAM bandwidth", skip = dram_too_slow,
      holds = function(ctx)
        return find(ctx.results, {vec = 1}).model.limit == "bytes in flight per thread" and
               find(ctx.results, {vec = 4}).model.limit == "DRAM bandwidth"
      end },
    { text = "copy with float4 reaches at least 1.3 times the bandwidth of copy with float", gpu = true,
      holds = function(ctx)
        return bandwidth_of(find(ctx.results, {vec = 4})) >= 1.3 * bandwidth_of(find(ctx.results, {vec = 1}))
      end },
  },
  explain = {
    en = [[About 1.5 in the model; the H200 measured about 1.6 when the model was fitted. Every sector is used in all three; what changed is how much each thread has on its way. That is instruction-level parallelism: one thread, more independent bytes in flight. Unrolled loops with several independent loads do the same.]],
    zh = [[模型给出约 1.5；拟合模型时 H200 实测约 1.6。三种情况下每个扇区都被用满；改变的是每个线程在路上的数据量。这就是指令级并行：一个线程，更多互不依赖的在途字节。把循环展开、放几个互不依赖的读，效果一样。]],
  },
}

step {
  text = {
    en = [[The other lever is occupancy: how many threads an SM holds at once, each with its loads in flight. An SM of this GPU (${device}) holds at most ${sm_threads} threads and at most ${sm_blocks} blocks, and fewer when the blocks use many registers or much shared memory. With blocks of 32 threads, ${sm_blocks} blocks are only ${threads_in_blocks_of_32} threads: fewer bytes in flight. The model has no occupancy (its in-flight term is per thread), so here both times are equal; on a GPU measure the difference. (In the compare() table, a is the 256-thread blocks, b the 32-thread ones.)]],
    zh = [[另一个杠杆是占用率：一个 SM 同时容纳多少线程，每个线程都有自己的在途读请求。这块 GPU（${device}）的一个 SM 最多容纳 ${sm_threads} 个线程、最多 ${sm_blocks} 个线程块；线程块用的寄存器或共享内存多时还会更少。线程块只有 32 个线程时，${sm_blocks} 个线程块才 ${threads_in_blocks_of_32} 个线程：在途字节更少。模型没有占用率的概念（它的在途项是按线程算的），所以这里两个时间相同；在 GPU 上测出差别。（compare() 表里 a 是 256 线程的线程块，b 是 32 线程的。）]],
  },
  run = [[s = launch("copy", {{vec = 1, block = 256}, {vec = 1, block = 32}}); c = compare(s[1], s[2]); c]],
  ask = {
    question = { en = "The time with blocks of 32 threads divided by the time with blocks of 256 (two decimals)?",
                 zh = "32 线程的线程块所用时间除以 256 线程的线程块所用时间（保留两位小数）？" },
    answer = function(ctx)
      local big, small = find(ctx.results, {vec = 1, block = 256}), find(ctx.results, {vec = 1, block = 32})
      return big and small and time_of(small) / time_of(big)
    end,
    tolerance = 0.03, relative = true,
  },
  hint = { { en = "The b/a column of the time row in the compare() table.", zh = "compare() 表里时间一行的 b/a 一栏。" } },
  claims = {
    { text = "copy (float) with blocks of 32 threads takes at least 1.15 times as long as with blocks of 256", gpu = true,
      holds = function(ctx)
        local big, small = find(ctx.results, {vec = 1, block = 256}), find(ctx.results, {vec = 1, block = 32})
        return time_of(small) >= 1.15 * time_of(big)
      end },
  },
  explain = {
    en = [[1.00 in the model, which cannot see occupancy. On a GPU the 32-thread blocks leave half of every SM's thread slots empty, and a copy that was already short of bytes in flight slows down. The chapter lists occupancy first among the ways to hide latency: while one warp waits, another issues.]],
    zh = [[模型给出 1.00，因为它看不到占用率。在 GPU 上，32 线程的线程块让每个 SM 一半的线程槽位空着，一个本来在途字节就不够的复制会因此变慢。本章把占用率列为隐藏延迟的第一种办法：一个 warp 等待时，另一个 warp 发射指令。]],
  },
}

step {
  text = {
    en = [[Prefetching issues the next loads before the current data is used. The prefetch family streams 4 consecutive chunks per block, out[i] = work(in[i]) with 8 multiply-adds: "none" loads a chunk, computes, stores, then loads the next (the store might alias the next load, so the load waits behind it); "register" loads the next chunk into a register before computing this one; "cp_async" copies the next chunk into shared memory with cp.async (sm_80 and newer), which needs no register, and waits for it with a pipeline barrier. The chapter's own prefetch example loads the next chunk into shared memory and then never reads it: the current element is loaded from global memory again. Here the prefetched data is what gets used. On a GPU older than sm_80 the experiment leaves cp_async out: can(name, params) says whether this GPU can run a launch, and why not.]],
    zh = [[预取就是在使用当前数据之前，先发出下一批读取。prefetch 族让每个线程块处理 4 个连续的数据块，out[i] = work(in[i])，含 8 次乘加：“none”读一块、计算、写回，再读下一块（写操作可能和下一次读的地址重叠，所以读只能排在它后面）；“register”在计算这一块之前，先把下一块读进寄存器；“cp_async”用 cp.async（sm_80 及更新）把下一块异步复制进共享内存，不占寄存器，再用流水线屏障等待它。本章自己的预取示例把下一块读进共享内存，之后却从不读它：当前元素又从全局内存读了一遍。这里预取进来的数据真的被用上了。在 sm_80 之前的 GPU 上，实验代码不运行 cp_async：can(name, params) 说明这块 GPU 能否运行某次启动，不能时说明原因。]],
  },
  run = [[v = {{variant = "none"}, {variant = "register"}}; if can("prefetch", {variant = "cp_async"}) then v[3] = {variant = "cp_async"} end; s = launch("prefetch", v); c = compare(table.unpack(s)); c]],
  ask = {
    question = { en = "What does prefetching change?", zh = "预取改变了什么？" },
    choices = {
      { en = "The DRAM bytes: the next chunk is already in L2 when it is needed, so it is not read from DRAM again.",
        zh = "DRAM 字节数：下一块在需要时已经在 L2 里，所以不必再从 DRAM 读。" },
      { en = "The sectors per request: loads issued together for two chunks coalesce better.",
        zh = "每请求扇区数：为两块数据一起发出的读合并得更好。" },
      { en = "Only when the loads are issued: the same requests, sectors and DRAM bytes.",
        zh = "只改变读请求发出的时机：请求数、扇区数和 DRAM 字节数都一样。" },
      { en = "The number of load requests: one instruction now fetches the chunk and the next.",
        zh = "读请求数：现在一条指令就取回这一块和下一块。" },
    },
    answer = function(ctx)
      local none, reg = find(ctx.results, {variant = "none"}), find(ctx.results, {variant = "register"})
      if not (none and reg) then return nil end
      if reg.load.requests < none.load.requests then return 4 end
      if reg.load.sectors_per_request < none.load.sectors_per_request then return 2 end
      if reg.model.dram.read_bytes < none.model.dram.read_bytes then return 1 end
      return 3
    end,
  },
  hint = {
    { en = "Read the compare() table: which rows differ between the three variants, and which stay the same?",
      zh = "读 compare() 表：三个版本之间哪几行不同，哪几行相同？" },
  },
  claims = {
    { text = "the model counts the same global sectors read (loads, or cp.async's copies) and stored for every variant the GPU ran (cp_async from sm_80)",
      holds = function(ctx)
        local none = find(ctx.results, {variant = "none"})
        local function read(r) return r.model.load.sectors + (r.model.ldgsts and r.model.ldgsts.sectors or 0) end
        for _, r in ipairs(ctx.results) do
          if read(r) ~= read(none) or r.model.store.sectors ~= none.model.store.sectors then
            return false
          end
        end
        return #ctx.results == (without_cp_async(ctx) and 2 or 3)
      end },
    { text = "prefetching the next chunk into a register is no slower than no prefetch (within 3%)", gpu = true,
      holds = function(ctx)
        return time_of(find(ctx.results, {variant = "register"})) <= 1.03 * time_of(find(ctx.results, {variant = "none"}))
      end },
    { skip = without_cp_async, text = "prefetching the next chunk with cp.async is faster than no prefetch", gpu = true,
      holds = function(ctx)
        return time_of(find(ctx.results, {variant = "cp_async"})) < time_of(find(ctx.results, {variant = "none"}))
      end },
  },
  explain = {
    en = [[Only the timing of the loads: the same requests, the same sectors, the same DRAM bytes. cp_async's copies are counted apart, on a cp.async row (the GPU counts them as LDGSTS, neither loads nor shared-memory stores), with the sectors none loads; it adds a shared-memory load per element and two chunks of staging space per block (2 x 256 floats, far below what would limit occupancy). On a GPU, look at the time row's verdicts: the prefetching variants keep two loads per thread in flight instead of one, and whether that shows in the time depends on how much latency the other warps already hide. On the H200 (2026-12-01) none and register both took 0.0437 ms, within noise of each other, while cp_async took 0.0368 ms, 0.84 of none's time.]],
    zh = [[只改变读请求发出的时机：请求数、扇区数、DRAM 字节数都一样。cp_async 的复制单独计在 cp.async 一行（GPU 把它们计为 LDGSTS，既不算读取，也不算共享内存写入），扇区数与 none 读取的相同；它每个元素多一次共享内存读，每个线程块多两块暂存空间（2 x 256 个 float，远不到会限制占用率的程度）。在 GPU 上看时间一行的判定：预取的版本让每个线程同时有两个读在途，而不是一个；这能否体现在时间上，取决于其他 warp 已经隐藏了多少延迟。在 H200 上（2026-12-01），none 和 register 都用了 0.0437 ms，差别在噪声之内，而 cp_async 用了 0.0368 ms，是 none 的 0.84 倍。]],
  },
}

step {
  text = {
    en = [[How does the model see the three variants? Its in-flight term divides a launch's DRAM reads by its threads, as if all of a thread's loads could be on their way at once. The prefetch family runs n/4 threads, each handling 4 elements.]],
    zh = [[模型是怎么看这三个版本的？它的在途项把一次启动的 DRAM 读取量除以线程数，好像一个线程的所有读取都能同时在途。prefetch 族运行 n/4 个线程，每个处理 4 个元素。]],
  },
  run = [[r = launch("prefetch", {variant = "none"}); r]],
  ask = {
    question = { en = "How many DRAM bytes does each thread read in the model (r.model.dram.read_bytes / (n / 4))?",
                 zh = "在模型里每个线程从 DRAM 读多少字节（r.model.dram.read_bytes / (n / 4)）？" },
    answer = function(ctx)
      local r = ctx.result
      return r.kernel == "prefetch" and r.model.dram.read_bytes / (r.params.n / 4) or nil
    end,
    tolerance = 0.1, unit = "bytes",
  },
  hint = { { en = "4 elements of 4 bytes.", zh = "4 个 4 字节的元素。" } },
  claims = {
    { text = "the model reads 16 DRAM bytes per prefetch thread and puts every variant at the DRAM bandwidth limit",
      holds = function(ctx)
        local r = ctx.result
        return r.model.dram.read_bytes == 4 * r.params.n and r.model.limit == "DRAM bandwidth"
      end },
  },
  explain = {
    en = [[16 bytes, like a float4 copy, so the model puts all three variants at the DRAM limit with the same time. That is the ideal prefetching aims at, not what "none" does: its next load waits for its store, so it has one 4-byte load on its way at a time; "register" and "cp_async" keep two. What separates them can only be measured.]],
    zh = [[16 字节，和 float4 复制一样，所以模型把三个版本都放在 DRAM 带宽的限制上，时间相同。这是预取追求的理想情况，而不是“none”实际的样子：它的下一次读要等写完成，所以每次只有一个 4 字节的读在途；“register”和“cp_async”保持两个。它们之间的差别只能靠测量。]],
  },
}

step {
  text = {
    en = [[Put Little's law to work in the model. Change only vec in this launch so that the model's estimate is no longer limited by bytes in flight per thread.]],
    zh = [[在模型里用一用 利特尔定律。只修改这次启动的 vec，让模型的估算不再受每个线程的在途字节数限制。]],
  },
  run = [[r = launch("copy", {vec = 1}); r.model.limit]],
  ask = {
    goal = { en = "copy with the default n, limit no longer 'bytes in flight per thread'.",
             zh = "copy，n 取默认值，瓶颈不再是“每个线程在途的字节数”。" },
    solution = [[launch("copy", {vec = 2})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "copy" and r.params.n == 1 << 26 and r.model.limit ~= "bytes in flight per thread"
    end,
  },
  hint = {
    { en = "vec = 2 doubles the bytes each thread has on its way.", zh = "vec = 2 让每个线程在途的字节数翻倍。" },
  },
  explain = {
    en = [[8 bytes per thread are enough for the model to call the copy DRAM-bound. More threads would not help in the model (its term is per thread); on a GPU they help only up to the occupancy limit, which is why the bytes each thread keeps in flight are the lever you control.]],
    zh = [[每个线程 8 字节就足以让模型认为这次复制受 DRAM 带宽限制。在模型里增加线程不起作用（它的在途项是按线程算的）；在 GPU 上增加线程也只在占用率上限以内有用，所以每个线程的在途字节数才是你能掌控的杠杆。]],
  },
}

step {
  text = {
    en = [[Exercise 6 of the chapter: a stream reads each element once and throws it away. Is hardware prefetching useful there, and does software prefetching make sense? The launch below puts the two ends of step 2 side by side: the same stream read once, one float and one float4 per thread.]],
    zh = [[本章第 6 题：一个流式程序每个元素只读一次，用完就丢。硬件预取在这里有用吗？软件预取有意义吗？下面的启动把第 2 步的两端放在一起：同一个只读一次的流，每个线程一个 float 和一个 float4。]],
  },
  run = [[c = compare(launch("copy", {vec = 1}), launch("copy", {vec = 4})); c]],
  ask = {
    question = { en = "Which answer fits your runs?", zh = "哪个答案符合你的运行结果？" },
    choices = {
      { en = "Neither: data used once gains nothing from caching or from prefetching.",
        zh = "都没有用：只用一次的数据从缓存和预取中都得不到好处。" },
      { en = "Caching gains nothing, but issuing loads early pays whenever the bytes in flight are too few to cover the latency.",
        zh = "缓存得不到好处，但只要在途字节不够覆盖延迟，提前发出读请求就有回报。" },
      { en = "Caching pays: the L2 keeps the stream, so the second half of it is served from cache.",
        zh = "缓存有回报：L2 留住了数据流，所以后一半从缓存里读。" },
      { en = "Only hardware prefetching: the GPU detects the stream and fetches ahead, so issuing loads earlier in software changes nothing.",
        zh = "只有硬件预取有用：GPU 会识别数据流并提前取数据，所以在软件里提前发出读请求什么也不会改变。" },
    },
    answer = 2,
  },
  hint = {
    { en = "In your comparison, what changed between vec = 1 and vec = 4, and what did not (sectors, DRAM bytes, time)?",
      zh = "在你的比较里，vec = 1 和 vec = 4 之间什么变了，什么没变（扇区、DRAM 字节、时间）？" },
    { en = "vec = 4 puts four times the bytes of each thread on their way at once: that is what a prefetch does too.",
      zh = "vec = 4 让每个线程同时有四倍的字节在途：预取做的也是这件事。" },
  },
  explain = {
    en = [[A stream has no reuse, so keeping its data in a cache is worthless; but its speed is set by Little's law, and prefetching is one way to have more bytes on their way, next to wider loads and higher occupancy. When those already fill the pipe (a float4 copy at full occupancy), prefetching has little left to gain. A GPU hides latency mostly with many warps rather than with a hardware prefetcher you can count on, so measure before adding one.]],
    zh = [[流式程序没有重用，把它的数据留在缓存里毫无价值；但它的速度由 利特尔定律决定，而预取和更宽的读取、更高的占用率一样，都是让更多字节在途的办法。当那些办法已经把管道填满时（满占用率下的 float4 复制），预取就没有多少可赚的了。GPU 主要靠大量 warp 来隐藏延迟，而不是靠一个你可以依赖的硬件预取器，所以加预取之前先测量。]],
  },
}

step {
  text = {
    en = [[Summing up, the ways to hide memory latency: more warps per SM (occupancy: mind the thread, block, register and shared-memory limits), more independent bytes per thread (wider loads, unrolled loads), loads issued early (a register prefetch, or cp.async into shared memory, which also frees the registers), and on the host, several streams whose kernels and copies overlap. Each one raises the bytes in flight; none of them moves fewer bytes. Type :next to finish.]],
    zh = [[小结，隐藏内存延迟的办法有：每个 SM 更多的 warp（占用率：注意线程数、线程块数、寄存器和共享内存的上限），每个线程更多互不依赖的字节（更宽的读取、展开的读取），提前发出读请求（预取到寄存器，或用 cp.async 取到共享内存，后者还能省下寄存器），以及在主机端用多个流让内核与拷贝重叠。每一种都提高了在途字节数；没有一种减少了搬运的字节。输入 :next 结束。]],
  },
}
