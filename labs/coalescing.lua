-- coalescing: stride, element width, broadcast and random gathers — how a
-- warp's addresses turn into sectors, and what share of them is used.

lab {
  title = { en = "Coalescing: stride, width, gathers, broadcast", zh = "合并访问：步长、元素宽度、随机访问、广播" },
  topics = { "coalescing", "stride", "element width", "useful bytes", "gather", "random access", "broadcast" },
  minutes = 20,   -- about how long a student takes, by its authors' estimate
}

step {
  text = {
    en = [[When the 32 lanes of a warp read neighbouring elements, their bytes fall into as few sectors as can hold them: the access is coalesced. When they read every k-th element, the same 128 useful bytes spread over k times as many bytes. Predict first: with a stride of 2 floats, how many sectors does a load request touch?]],
    zh = [[当一个 warp 的 32 个线程读取相邻的元素时，它们的字节落在尽可能少的扇区里：这就是合并访问。当它们每隔 k 个元素读一个时，同样 128 个有用字节就分散到 k 倍的字节范围里。先预测：步长为 2 个 float 时，一个读请求碰到多少个扇区？]],
  },
  run = [[r = launch("strided", {stride = 2, n = 1 << 20}); r]],
  ask = {
    predict = { en = "Load sectors per request at stride 2?", zh = "步长为 2 时每个读请求的扇区数？" },
    measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "stride 2 touches 8 sectors per load request",
      holds = function(ctx) return ctx.result.load.sectors_per_request == 8.0 end },
  },
  explain = {
    en = [[32 lanes × 8 bytes apart span 256 bytes: 8 sectors, half of each used.]],
    zh = [[32 个线程相隔 8 字节，跨越 256 字节：8 个扇区，每个只用了一半。]],
  },
}

step {
  text = {
    en = [[Sweep the stride from 1 to 64 floats and watch two things in the table: the load sectors per request and the DRAM bytes.]],
    zh = [[把步长从 1 扫到 64 个 float，在表里看两样东西：每个读请求的扇区数和 DRAM 字节数。]],
  },
  run = [[s = sweep("strided", {stride = pow2(0, 6), n = 1 << 20})]],
  ask = {
    question = { en = "In your sweep, from which stride on do the load sectors per request stop growing?",
                 zh = "在你的扫描里，从哪个步长开始，每个读请求的扇区数不再增长？" },
    answer = function(ctx)   -- the smallest stride that already has the largest sectors per request
      local most = 0
      for _, r in ipairs(ctx.results or {}) do most = math.max(most, r.load.sectors_per_request) end
      return extreme(ctx.results, "stride", function(r) return r.load.sectors_per_request >= 0.995 * most end)
    end,
    tolerance = 0, unit = "floats",
  },
  claims = {
    { text = "from stride 8 on, every lane needs a sector of its own (32 sectors per request)",
      holds = function(ctx)
        for _, r in ipairs(ctx.results or {}) do
          if r.params.stride >= 8 and r.load.sectors_per_request ~= 32.0 then return false end
        end
        return true
      end },
    { text = "the model: DRAM reads 32 bytes per useful float at stride 8 and 64 from stride 16 on (each sector alone in a 64-byte block costs the block)",
      holds = function(ctx)
        local function per_float(stride)
          local r = find(ctx.results, {stride = stride})
          return r and r.model.dram.read_bytes / r.params.n
        end
        local function near(x, want) return x ~= nil and math.abs(x / want - 1) < 0.02 end
        return near(per_float(8), 32) and near(per_float(16), 64) and near(per_float(64), 64)
      end },
    { text = "at stride 16, the GPU reads 64 bytes of DRAM per useful float (each sector alone in a 64-byte block costs the block)",
      gpu = true,
      holds = function(ctx)
        local r = find(ctx.results, {stride = 16})
        local per_float = r and r.dram.read_bytes / r.params.n
        return per_float ~= nil and per_float > 56 and per_float < 72
      end },
  },
  hint = {
    { en = "Read down the load sect/req column until it stops changing.", zh = "沿着 “读取 扇区/请求”那一列往下读，直到它不再变化。" },
    { en = "A request has 32 lanes. How many sectors can it touch at the most?", zh = "一个请求有 32 个线程。它最多能碰多少个扇区？" },
  },
  explain = {
    en = [[8: at a stride of 8 floats (32 bytes) every lane has a sector of its own, 32 a request, and no request can touch more. From there on the sector columns stop changing, and so does the useful share of what L1 and L2 move: 4 bytes of each 32-byte sector, 12.5%, already at stride 8. What still grows is the DRAM column: 33.6 MB at stride 8, 67.1 MB from 16 on (H200 profile). DRAM is read in 64-byte blocks; at stride 8 two neighbouring sectors fill a block, from stride 16 each sector sits alone in its block and pays for all 64 bytes, so a useful float costs 64 bytes of DRAM traffic, 6.25%. The reference notes put the worst case at 3.125%, 4 bytes of a 128-byte transaction, as if DRAM and L2 traded whole 128-byte lines; on the H200 L1 and L2 move 32-byte sectors and DRAM 64-byte blocks (docs/model.md), so the worst a lane can do is 12.5% of the sectors and 6.25% of the DRAM bytes.]],
    zh = [[8：步长为 8 个 float（32 字节）时每个线程独占一个扇区，每个请求 32 个，请求不可能碰更多扇区。从这里往后，扇区那几列不再变化，L1 和 L2 搬运的数据中有用的比例也不再变：每个 32 字节扇区里用 4 个字节，即 12.5%，步长为 8 时就已经是这样。还在增长的是 DRAM 那一列：步长 8 时 33.6 MB，从 16 起 67.1 MB（H200 配置）。DRAM 以 64 字节的块为单位读取；步长为 8 时相邻的两个扇区正好填满一个块，从步长 16 起每个扇区独占一个块，要为整整 64 字节付费，所以每个有用的 float 要花 64 字节的 DRAM 流量，即 6.25%。参考笔记说最坏情况是 3.125%，即 128 字节事务里的 4 个字节，好像 DRAM 和 L2 之间搬的是整条 128 字节的缓存行；在 H200 上，L1 和 L2 搬运的是 32 字节的扇区，DRAM 读的是 64 字节的块（docs/model.md），所以一个线程最坏也有 12.5% 的扇区字节和 6.25% 的 DRAM 字节是有用的。]],
  },
}

step {
  text = {
    en = [[Element width matters too, and it is not a waste: wider elements carry more useful bytes per lane. The width family copies one element per thread, from char (1 byte) to float4 (16 bytes).]],
    zh = [[元素宽度也有影响，但那不是浪费：更宽的元素每个线程携带更多有用字节。width 族每个线程复制一个元素，从 char（1 字节）到 float4（16 字节）。]],
  },
  run = [[s = sweep("width", {type = {"char", "short", "float", "double", "float2", "float4"}, n = 1 << 20})]],
  ask = {
    question = { en = "How many sectors does one load request of double touch?", zh = "double 的一个读请求碰到多少个扇区？" },
    answer = function(ctx)
      local r = find(ctx.results, {type = "double"})
      return r and r.load.sectors_per_request
    end,
    tolerance = 0.01, unit = "sectors/request",
  },
  hint = { { en = "The load sect/req column of the sweep's table, on the double row.", zh = "扫描表里“读取 扇区/请求”那一列，double 那一行。" } },
  explain = {
    en = [[8 sectors, all of them used: 256 useful bytes per request. Twice the sectors of float, and twice the data — the chapter's exercise on double. Sectors per request alone does not say good or bad; the useful share does.]],
    zh = [[8 个扇区，全部用到：每个请求 256 个有用字节。是 float 的两倍扇区，也是两倍数据——这就是本章关于 double 的练习。单看每请求扇区数不能判断好坏，要看有用字节的比例。]],
  },
}

step {
  text = {
    en = [=[Random access is the hardest case: a gather, out[i] = in[idx[i]], where each lane loads wherever its index points. With pattern = "random" the indices are spread over the whole 48 MiB input. Each thread makes two loads: its index idx[i] (consecutive, coalesced) and the element it names. Predict first: the average load sectors per request of this launch, over both loads?]=],
    zh = [=[随机访问是最难的情形：间接读取，out[i] = in[idx[i]]，每个线程到它的下标指向的地方去读。pattern = "random" 时，下标分散在整个 48 MiB 的输入上。每个线程做两次读取：它的下标 idx[i]（连续的，合并访问）和下标指向的元素。先预测：这次启动两种读取平均下来，每个读请求碰多少个扇区？]=],
  },
  run = [[g = launch("gather", {pattern = "random"}); g]],
  ask = {
    predict = { en = "Load sectors per request of the random gather (both loads averaged)?",
                zh = "随机间接读取每个读请求的扇区数（两种读取的平均）？" },
    measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "gather, random indices: 18 sectors per load request (the index load's 4 and the gathered load's 32, averaged), within 1%",
      holds = function(ctx) return math.abs(ctx.result.load.sectors_per_request - 18) <= 0.18 end },
  },
  explain = {
    en = [[About 18: the index load takes 4 sectors, the gathered load almost 32, one sector per lane, since 32 random floats out of 12 million hardly ever share a sector. Useful bytes: 22%. Nothing in the code can coalesce it: the addresses come from data.]],
    zh = [[约 18 个：下标的读取占 4 个扇区，间接读取的那一次接近 32 个，每个线程一个扇区，因为在 1200 万个 float 里随机取 32 个，几乎不会落在同一个扇区。有用字节：22%。代码里没有任何办法让它合并：地址来自数据。]],
  },
}

step {
  text = {
    en = [[What if the indices are sorted? pattern = "sorted" gives each group of 32 outputs 32 random elements of its own 32-element slice, in ascending order: the same kind of data-dependent addresses, but a warp's addresses now fall in a narrow range. Run both patterns side by side.]],
    zh = [[如果下标是排好序的呢？pattern = "sorted" 让每 32 个输出读取它自己那段 32 个元素里的 32 个随机元素，按升序排列：地址同样由数据决定，但一个 warp 的地址现在落在一个很窄的范围里。把两种模式并排运行。]],
  },
  run = [[rs = launch("gather", {{pattern = "random"}, {pattern = "sorted"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "How many times fewer load sectors does the gather make with sorted indices than with random ones (random sectors ÷ sorted sectors)?",
                 zh = "下标排好序时，间接读取的读扇区数比随机下标少多少倍（随机的扇区数 ÷ 排序的扇区数）？" },
    answer = function(ctx)
      local random, sorted = find(ctx, "gather", { pattern = "random" }), find(ctx, "gather", { pattern = "sorted" })
      if random and sorted and random.params.n == sorted.params.n then return random.load.sectors / sorted.load.sectors end
    end,
    tolerance = 0.02, relative = true,
  },
  hint = {
    { en = "The 'load sectors' row of the compare() table.", zh = "compare() 表里“读取扇区数”那一行。" },
    { en = "Both launches make the same index load; only the gathered load changes.", zh = "两次启动的下标读取一样；变的只是间接读取那一次。" },
  },
  claims = {
    { text = "gather: sorted indices take 4 sectors per load request, and random ones 4.5 times the sectors, within 1%",
      holds = function(ctx)
        local random, sorted = ctx.results[1].load, ctx.results[2].load
        return math.abs(sorted.sectors_per_request - 4) <= 0.04 and math.abs(random.sectors / sorted.sectors - 4.5) <= 0.045
      end },
    { text = "the model: the sorted gather reads each byte of its indices and input from DRAM once; the random one at least 1.5 times as much, and 3 times where the L2 is 64 MiB or less",
      holds = function(ctx)
        local random, sorted = ctx.results[1], ctx.results[2]
        local ratio = random.model.dram.read_bytes / sorted.model.dram.read_bytes
        return sorted.model.dram.read_bytes == 8 * sorted.params.n and ratio >= 1.5 and
               (ctx.device.l2_bytes > 64 * 1024 * 1024 or ratio >= 3)
      end },
  },
  explain = {
    en = [[4.5: 36 sectors per warp (4 for the indices, 32 for the elements) against 8 (4 and 4). A sorted warp reads within one 128-byte slice, so its 32 lanes share at most 4 sectors whatever their order (some elements are read twice, some not at all). Order within a warp does not matter; the range the warp's addresses cover does. Sorting (or binning) the work by index before a gather is the usual fix for random access. The model charges DRAM for each byte of the indices and the input once for the sorted gather (101 MB), but not for the random one: it lets a launch keep only 0.55 of the L2, and the random lanes keep coming back to blocks of the 48 MiB input that L2 has already let go, so on the H200 profile it reads about 426 MB. The H200 read 101 MB and 452 MB (2026-12-02): its L2 (60 MiB) catches only part of the random gather's extra sectors. On a GPU, your run's DRAM line shows how much.]],
    zh = [[4.5 倍：每个 warp 36 个扇区（下标 4 个，元素 32 个）对 8 个（4 个和 4 个）。排好序的 warp 只在一段 128 字节里读取，所以不管顺序如何，它的 32 个线程最多共用 4 个扇区（有些元素被读两次，有些一次也没读）。warp 内的顺序无关紧要，要紧的是 warp 的地址覆盖的范围。在间接读取之前按下标给工作排序（或分桶），是随机访问的常用改进办法。对排好序的间接读取，模型把下标和输入的每个字节向 DRAM 只计一次（101 MB）；对随机的则不然：模型只让一次启动留住 L2 的 0.55，而随机的各线程一再回到 48 MiB 输入中 L2 已经放走的块，所以在 H200 配置下它读约 426 MB。H200 实测读了 101 MB 和 452 MB（2026-12-02）：它的 L2（60 MiB）只接住了随机间接读取多出来的扇区的一部分。在 GPU 上，你的运行的 DRAM 行会显示有多少。]],
  },
}

step {
  text = {
    en = [[A broadcast is the opposite of a scatter: all the lanes of a warp read the same address. From global memory that is one sector for the whole warp. From constant memory it is one pass of the constant cache; distinct addresses there are served one after another.]],
    zh = [[广播与分散正好相反：一个 warp 的所有线程读同一个地址。从全局内存读，整个 warp 只要一个扇区。从常量内存读，只要常量缓存的一次传送；常量内存里的不同地址则要一个接一个地服务。]],
  },
  run = [[same = launch("broadcast", {space = "constant", pattern = "same"}); distinct = launch("broadcast", {space = "constant", pattern = "distinct"}); distinct]],
  ask = {
    question = { en = "With distinct addresses, how many constant-cache passes does one warp request take?",
                 zh = "地址各不相同时，一个 warp 请求要常量缓存传送几次？" },
    answer = function(ctx) return ctx.result.constant.passes / ctx.result.constant.requests end,
    tolerance = 0.01,
  },
  hint = {
    { en = "Find the constant line of the card: it counts requests and passes.", zh = "找到结果卡片上“常量”那一行：它数了请求和传送次数。" },
    { en = "The constant cache serves one address a pass. How many distinct addresses does one request of a warp hold?", zh = "常量缓存每次传送只服务一个地址。一个 warp 的一个请求里有多少个不同的地址？" },
  },
  claims = {
    { text = "distinct constant addresses take 32 passes a request, the same address 1",
      holds = function(ctx) return ctx.result.constant.passes == 32 * ctx.result.constant.requests end },
    { text = "distinct constant addresses make the launch slower than one broadcast address", gpu = true,
      holds = function(ctx)
        local same = launch("broadcast", {space = "constant", pattern = "same"})
        return ctx.result.time_ms > 1.2 * same.time_ms
      end },
  },
  explain = {
    en = [[32: one per distinct address. Constant memory is for values every lane of a warp reads at once, like a filter's weights.]],
    zh = [[32 次：每个不同的地址一次。常量内存适合一个 warp 的所有线程同时读取的值，比如滤波器的权重。]],
  },
}

step {
  text = {
    en = [[Summing up: coalescing is about the bytes a warp asks for landing in as few sectors as can hold them. Type :next to finish.]],
    zh = [[小结：合并访问的关键是让一个 warp 要的字节落在尽可能少、刚好装得下的扇区里。输入 :next 结束。]],
  },
}
