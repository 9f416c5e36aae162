-- aos-soa: an array of structs against a struct of arrays. The reference
-- notes' write-one-field experiment and the write-allocate it hides, records
-- of 2 to 8 floats, the chapter's particles, its exercise on a 32-byte
-- struct, and when an array of structs is fine.

lab {
  title = { en = "Arrays of structs, structs of arrays", zh = "结构体数组与数组结构体" },
  topics = { "AoS", "SoA", "record size", "write-allocate", "particles" },
  minutes = 40,   -- about how long a student takes, by its authors' estimate
}

step {
  text = {
    en = [[The reference notes' experiment: struct { float x, y; } res[n], and every thread writes one field, res[i].x = a[i] + b[i]. As an array of structs (AoS) record i's x and y sit side by side, so the x of neighbouring threads are 8 bytes apart; as a struct of arrays (SoA) all x form one array of their own. aos_soa is that kernel (fields = 2 floats a record, access = "write"). Before you run the AoS version, predict: how many sectors does one store request touch?]],
    zh = [[参考笔记里的实验：struct { float x, y; } res[n]，每个线程只写一个字段：res[i].x = a[i] + b[i]。按结构体数组（AoS）存放时，第 i 条记录的 x 和 y 紧挨着，所以相邻线程的 x 相隔 8 字节；按数组结构体（SoA）存放时，所有的 x 自成一个数组。aos_soa 就是这个核函数（fields = 每条记录 2 个 float，access = "write"）。运行 AoS 版本之前，先预测：一个写请求会碰到多少个扇区？]],
  },
  run = [[r = launch("aos_soa", {layout = "aos", fields = 2, access = "write"}); show(r)]],
  ask = {
    predict = { en = "Store sectors per request of the AoS write?", zh = "AoS 写操作每个写请求的扇区数？" },
    measure = function(ctx) return ctx.result.store.sectors_per_request, ctx.result.model.store.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "AoS {x, y}: the store of x touches 8 sectors per request, the loads of a and b 4",
      holds = function(ctx)
        return ctx.result.store.sectors_per_request == 8.0 and ctx.result.load.sectors_per_request == 4.0
      end },
  },
  explain = {
    en = [[8: the warp's 32 x values lie 8 bytes apart and span 256 bytes, eight sectors, and the map shows half of every sector (the y fields) left alone. The loads of a and b are plain arrays: 4 sectors each. The notes saw the same: twice the sectors of SoA on the store.]],
    zh = [[8 个：warp 的 32 个 x 相隔 8 字节，横跨 256 字节，也就是八个扇区；图里每个扇区都有一半（y 字段）没有被碰到。a 和 b 的读取是普通数组：各 4 个扇区。笔记里看到的也是这样：写操作的扇区数是 SoA 的两倍。]],
  },
}

step {
  text = {
    en = [[Now both layouts in one go, and compare() side by side. On a GPU your run measures the times; on the sim backend they are the model's.]],
    zh = [[现在一次运行两种布局，用 compare() 并排比较。在 GPU 上时间是你的运行实测的；在模拟后端上是模型的估算。]],
  },
  run = [[rs = launch("aos_soa", {{layout = "aos"}, {layout = "soa"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "How many times as long as SoA does AoS take (AoS time / SoA time, to 2 decimals)?",
                 zh = "AoS 用的时间是 SoA 的多少倍（AoS 时间 / SoA 时间，保留两位小数）？" },
    answer = function(ctx)
      local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
      return aos and soa and time_of(aos) / time_of(soa)
    end,
    tolerance = 0.03, relative = true,
  },
  hint = {
    { en = "compare() prints the ratio b/a; you want a/b, the AoS time over the SoA time.",
      zh = "compare() 打印的是 b/a；这里要的是 a/b，即 AoS 时间除以 SoA 时间。" },
    { en = "rs[1].time_ms (on the sim backend rs[1].model.time_ms) over the same field of rs[2].",
      zh = "rs[1].time_ms（sim 后端上是 rs[1].model.time_ms）除以 rs[2] 的同一个字段。" },
  },
  claims = {
    { text = "the notes' experiment: AoS takes over 1.2 times as long as SoA", gpu = true,
      holds = function(ctx)
        local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
        return time_of(aos) > 1.2 * time_of(soa)
      end },
  },
  explain = {
    en = [[The notes measured SoA 1.5 to 1.8 times faster on their card and blamed the store's doubled sectors. Look at the DRAM row of the comparison too: AoS reads twice the bytes from DRAM, although both launches load exactly the same a and b. The next step asks where those bytes come from.]],
    zh = [[笔记在他们的显卡上测得 SoA 快 1.5 到 1.8 倍，并把原因归于写操作的扇区数翻倍。再看比较表里的 DRAM 那一行：AoS 从 DRAM 读的字节是 SoA 的两倍，可是两次启动读取的 a 和 b 完全一样。下一步问这些字节从哪里来。]],
  },
}

step {
  text = {
    en = [[Both launches load a and b with 4 sectors per request, the same requests, the same sectors. Yet the DRAM row shows AoS reading about twice the bytes. Look at rs[1].model.dram and rs[2].model.dram: the model's DRAM estimate, in its parts.]],
    zh = [[两次启动读取 a 和 b 时都是每请求 4 个扇区，请求数和扇区数都一样。可是 DRAM 那一行显示 AoS 读的字节大约多了一倍。看看 `rs[1].model.dram` 和 `rs[2].model.dram`：模型的 DRAM 估算，分成几个部分。]],
  },
  ask = {
    question = { en = "Where do the extra DRAM reads of AoS come from?", zh = "AoS 多出来的 DRAM 读取从哪里来？" },
    choices = {
      { en = "The store requests touch 8 sectors instead of 4, and DRAM is read for every sector a store touches",
        zh = "写请求碰 8 个扇区而不是 4 个，而写碰到的每个扇区都要从 DRAM 读" },
      { en = "Each store fills only half of a 32-byte sector, so L2 first reads that sector from DRAM (write-allocate)",
        zh = "每次写只填满 32 字节扇区的一半，所以 L2 要先从 DRAM 读入这个扇区（写分配）" },
      { en = "The kernel also loads the y fields it does not need", zh = "核函数把用不到的 y 字段也读了进来" },
      { en = "A cold L2 must read a buffer in before any store to it, and the AoS buffer is twice as large",
        zh = "冷 L2 在写一个缓冲区之前必须先把它读进来，而 AoS 的缓冲区大一倍" },
    },
    answer = 2,
  },
  hint = {
    { en = "Test each choice against the SoA launch: its stores touch sectors too, and its buffer is in a cold L2 too. What does SoA read beyond a and b?",
      zh = "用数组结构体的那次启动检验每个选项：它的写也碰扇区，它的缓冲区也在冷 L2 里。除了 a 和 b，它还读了什么？" },
    { en = "The loads lines show which arrays the kernel reads. What differs between an AoS store sector and an SoA one?",
      zh = "“读取”行显示核函数读了哪些数组。AoS 的一个写扇区和 SoA 的有什么不同？" },
  },
  claims = {
    { text = "AoS write: the model counts a write-allocate read of every record sector (n * 8 bytes), SoA none",
      holds = function(ctx)
        local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
        return aos.model.dram.write_allocate_bytes == aos.params.n * 8 and soa.model.dram.write_allocate_bytes == 0
      end },
    { text = "the model: a naive 2048 x 2048 transpose stores 4 bytes of 32 sectors a request, other warps complete each sector, and nothing is read for them",
      holds = function(ctx)
        local r = launch("transpose", {variant = "naive", rows = 2048, cols = 2048})
        return r.model.store.sectors_per_request == 32 and r.model.dram.write_allocate_bytes == 0 and
               r.model.dram.read_bytes == r.model.load.bytes
      end },
    { text = "a naive 2048 x 2048 transpose (16 MiB out, held by L2) reads from DRAM at most 3% over its input's bytes: its partial stores are merged in L2, not read", gpu = true,
      holds = function(ctx)
        local r = launch("transpose", {variant = "naive", rows = 2048, cols = 2048})
        return r.dram.read_bytes <= 1.03 * r.model.load.bytes
      end },
    { text = "AoS write reads at least 1.3 times the DRAM bytes of SoA (write-allocate of half-written sectors)",
      gpu = true,
      holds = function(ctx)
        local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
        return aos.dram.read_bytes >= 1.3 * soa.dram.read_bytes
      end },
  },
  explain = {
    en = [[Write-allocate. L2 keeps data in 32-byte sectors; a store that covers a whole sector simply replaces it, but x alone covers half of each, and no store of the launch ever writes the other half. L2 merges the partial stores a launch makes to one sector while it holds the sector, so a sector that other stores complete costs no read (one warp writing 4 bytes of it and seven others the rest is fine); a sector still incomplete must be filled from DRAM before it can go back whole. Here that is every sector of res: n × 8 bytes read, as much as a and b together. The notes' explanation (twice the sectors per store request) is true but small; the hidden cost is these reads, and the dirty sectors written back whole, y included.]],
    zh = [[写分配。L2 以 32 字节扇区为单位保存数据；一次写如果盖住整个扇区，直接替换即可，但只写 x 只盖住每个扇区的一半，而这次启动里没有哪次写会写另一半。只要扇区还在 L2 里，L2 就会把一次启动写到它的部分写入合并起来，所以被别的写补齐的扇区不需要读（一个 warp 写其中 4 字节、另外七个 warp 写其余部分也没关系）；仍不完整的扇区要先从 DRAM 读来补齐，才能整个写回。这里 `res` 的每个扇区都是这样：读 n × 8 字节，和 a、b 加起来一样多。笔记的解释（每个写请求的扇区数翻倍）没错，但影响不大；隐藏的代价是这些读取，以及连同 y 一起整扇区写回的脏数据。]],
  },
}

step {
  text = {
    en = [[Larger records make AoS worse. Sweep the record from 2 to 8 floats, still writing field 0 only; the chart shows the store sectors per request.]],
    zh = [[记录越大，AoS 越糟。把记录从 2 个 float 扫到 8 个，仍然只写第 0 个字段；图表显示每个写请求的扇区数。]],
  },
  run = [[s = sweep("aos_soa", {fields = range(2, 8), y = "store_sectors_per_request"})]],
  ask = {
    question = { en = "From how many fields on does every lane's store need a sector of its own (32 sectors per request)?",
                 zh = "字段数从多少开始，每个线程的写都要独占一个扇区（每请求 32 个扇区）？" },
    answer = function(ctx)
      return extreme(ctx.results, "fields", function(r) return r.kernel == "aos_soa" and r.store.sectors_per_request >= 32 end)
    end,
    tolerance = 0,
  },
  hint = {
    { en = "Read down the chart: where does the bar stop growing?", zh = "沿着图往下读：条形从哪里开始不再变长？" },
  },
  claims = {
    { text = "AoS write of field 0: 4 * fields store sectors per request for fields 2..8",
      holds = function(ctx)
        local seen = 0
        for _, r in ipairs(ctx.results) do
          if r.store.sectors_per_request ~= 4 * r.params.fields then return false end
          seen = seen + 1
        end
        return seen == 7
      end },
  },
  explain = {
    en = [[8 fields: a 32-byte record puts every lane in its own sector, 4 useful bytes of 32 (12.5%). The sectors grow as 4 × fields until then, and DRAM sees the same growth: no store of the launch writes the other fields, so every sector it touches is left incomplete, read from DRAM (write-allocate) and written back whole. A struct of arrays stays at 4 sectors whatever the record's size.]],
    zh = [[8 个字段：32 字节的记录让每个线程独占一个扇区，32 字节里只有 4 字节有用（12.5%）。在这之前扇区数按 4 × fields 增长，DRAM 流量也一样增长：这次启动里没有哪次写会写其他字段，所以它碰到的每个扇区都不完整，要从 DRAM 读入（写分配），再整个写回。数组结构体不管记录多大，始终是 4 个扇区。]],
  },
}

step {
  text = {
    en = [[The chapter's code: particles of eight floats (x, y, z, vx, vy, vz, mass and a pad to 32 bytes) and the velocity update v += a·dt, which reads and writes vx, vy and vz only. Predict for the array of structs: how many sectors does one load request touch?]],
    zh = [[章节里的代码：每个粒子八个 float（x、y、z、`vx`、`vy`、`vz`、`mass`，外加一个填充凑成 32 字节），速度更新 `v += a·dt` 只读写 `vx`、`vy`、`vz`。先预测结构体数组版本：一个读请求会碰到多少个扇区？]],
  },
  run = [[p = launch("particles", {layout = "aos"}); show(p)]],
  ask = {
    predict = { en = "Load sectors per request of the AoS particles?", zh = "AoS 粒子每个读请求的扇区数？" },
    measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "AoS particles: 32 sectors per load and store request (one 32-byte particle per lane)",
      holds = function(ctx)
        return ctx.result.load.sectors_per_request == 32.0 and ctx.result.store.sectors_per_request == 32.0
      end },
    { text = "AoS particles: L1 serves the vy and vz loads from the sectors vx brought (L2 read sectors under 3/4 of load sectors)",
      gpu = true, counters = true,
      holds = function(ctx)
        local c = ctx.result.counters
        return c ~= nil and c.l2_read_sectors.value < 0.75 * ctx.result.load.sectors
      end },
  },
  explain = {
    en = [[32: particles are 32 bytes, so each lane's vx lies in a sector of its own, and vy and vz in the same sectors again. The map shows three loads and three stores, each using 4 bytes of every sector: 6 requests of 32 sectors, 192 sectors for 768 useful bytes. The vy and vz loads find their sectors already fetched by vx (on a GPU counters.l2_read_sectors shows far fewer sectors going to L2 than the loads ask for), but DRAM still has to deliver every particle whole.]],
    zh = [[32 个：粒子是 32 字节，所以每个线程的 `vx` 独占一个扇区，`vy` 和 `vz` 又落在同样的扇区里。图里有三次读和三次写，每次只用每个扇区的 4 个字节：6 个请求、每个 32 个扇区，共 192 个扇区，只为了 768 个有用字节。`vy` 和 `vz` 的读取会发现扇区已经被 `vx` 取回（在 GPU 上，counters.l2_read_sectors 显示去 L2 的扇区远少于读请求要的扇区），但 DRAM 仍然要把每个粒子整个送来。]],
  },
}

step {
  text = {
    en = [[Now the chapter's experiment: AoS against SoA, seven arrays with no pad. Compare the DRAM bytes.]],
    zh = [[现在做章节里的实验：AoS 对比 SoA（七个数组，没有填充）。比较 DRAM 字节数。]],
  },
  run = [[rs = launch("particles", {{layout = "aos"}, {layout = "soa"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "DRAM bytes read by AoS divided by those read by SoA (to 2 decimals)?",
                 zh = "AoS 的 DRAM 读取字节数除以 SoA 的，是多少（保留两位小数）？" },
    answer = function(ctx)
      local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
      return aos and soa and aos.dram.read_bytes / soa.dram.read_bytes
    end,
    tolerance = 0.03, relative = true,
  },
  hint = {
    { en = "compare() shows the DRAM row; or divide rs[1].dram.read_bytes by rs[2].dram.read_bytes.",
      zh = "compare() 有 DRAM 那一行；也可以用 rs[1].dram.read_bytes 除以 rs[2].dram.read_bytes。" },
    { en = "AoS brings all 32 bytes of a particle; SoA only the 12 of vx, vy, vz.", zh = "AoS 要把粒子的 32 字节全部取来；SoA 只取 `vx`、`vy`、`vz` 的 12 字节。" },
  },
  claims = {
    { text = "particles: AoS reads 32/12 of the DRAM bytes of SoA (model)",
      holds = function(ctx)
        local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
        return math.abs(aos.model.dram.read_bytes / soa.model.dram.read_bytes - 32 / 12) < 0.01
      end },
    { text = "particles: AoS reads 2.2 to 3.1 times the DRAM bytes of SoA", gpu = true,
      holds = function(ctx)
        local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
        local ratio = aos.dram.read_bytes / soa.dram.read_bytes
        return ratio >= 2.2 and ratio <= 3.1
      end },
    { text = "particles: AoS takes over 1.5 times as long as SoA", gpu = true,
      holds = function(ctx)
        local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
        return time_of(aos) > 1.5 * time_of(soa)
      end },
  },
  explain = {
    en = [[About 2.67 = 32/12: AoS moves whole particles through DRAM, SoA only the three velocity arrays. The writes go the same way, and the time follows the bytes. The chapter says the gain depends on the size of the struct and on how much of it a kernel uses: here 12 of 32 bytes.]],
    zh = [[大约 2.67 = 32/12：AoS 让整个粒子经过 DRAM，SoA 只搬三个速度数组。写回也是同样的比例，时间跟着字节数走。章节指出，收益大小取决于结构体有多大、核函数用到其中多少：这里是 32 字节里的 12 字节。]],
  },
}

step {
  text = {
    en = [[The chapter's exercise: struct { int id; float x, y, z; double timestamp; }, taken as 32 bytes, and a kernel that uses only x, y and z. That is the geometry you just measured: 12 useful bytes in each 32-byte record, all inside one sector. Answer from your two particles launches.]],
    zh = [[章节的习题：struct { `int id`; float x, y, z; double timestamp; }，按 32 字节计算，核函数只用 x、y、z。这正是你刚刚测量的情形：每条 32 字节的记录里有 12 个有用字节，全在同一个扇区里。用你的两次 particles 启动来回答。]],
  },
  ask = {
    question = { en = "By what percentage does SoA cut the DRAM bytes read, compared with AoS?",
                 zh = "与 AoS 相比，SoA 让 DRAM 读取字节减少了百分之多少？" },
    answer = function(ctx)
      local aos, soa = find(ctx, {layout = "aos"}), find(ctx, {layout = "soa"})
      return aos and soa and 100 * (1 - soa.dram.read_bytes / aos.dram.read_bytes)
    end,
    tolerance = 1.5, unit = "%",
  },
  hint = {
    { en = "1 − (SoA bytes / AoS bytes), in percent.", zh = "1 − (SoA 字节数 / AoS 字节数)，换成百分数。" },
  },
  explain = {
    en = [[62.5%: SoA reads 12 of every 32 bytes AoS reads. Note that the saving is set by the sector, not the field list: x, y, z share one sector per record, so AoS costs exactly one sector per record however many of the three fields the kernel uses.]],
    zh = [[62.5%：AoS 每读 32 字节，SoA 只读其中 12 字节。注意节省多少是由扇区决定的，而不是字段列表：x、y、z 在每条记录里同在一个扇区，所以不管核函数用这三个字段中的几个，AoS 每条记录都正好花一个扇区。]],
  },
}

step {
  text = {
    en = [[Is that struct really 32 bytes? int id takes bytes 0–3, x, y, z bytes 4–15, and the double must start on a multiple of 8, which 16 already is: it ends at 24, and 24 is a multiple of 8, so no padding follows. sizeof is 24 unless the code pads it on purpose. The experiment below reads field 0 of 32-byte records (fields = 8) and prints the DRAM bytes read per record. Change it to records of the struct's real size and run it.]],
    zh = [[这个结构体真的是 32 字节吗？`int id` 占第 0–3 字节，x、y、z 占第 4–15 字节，double 必须从 8 的倍数开始，16 正好是：它结束于 24，而 24 是 8 的倍数，所以后面不需要填充。除非代码有意填充，`sizeof` 是 24。下面的实验读取 32 字节记录（fields = 8）的第 0 个字段，并打印每条记录的 DRAM 读取字节数。把它改成这个结构体的真实大小再运行。]],
  },
  run = [[r = launch("aos_soa", {layout = "aos", fields = 8, access = "read"}); r.dram.read_bytes / r.params.n]],
  ask = {
    goal = { en = "aos_soa, layout \"aos\", access \"read\", with records of the struct's real size.",
             zh = "aos_soa，layout 为 \"aos\"，access 为 \"read\"，记录大小等于这个结构体的真实大小。" },
    solution = [[r = launch("aos_soa", {layout = "aos", fields = 6, access = "read"})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "aos_soa" and r.params.layout == "aos" and r.params.access == "read" and r.params.fields == 6
    end,
  },
  hint = {
    { en = "A record is fields × 4 bytes.", zh = "一条记录是 fields × 4 字节。" },
    { en = "24 bytes is 6 floats.", zh = "24 字节就是 6 个 float。" },
  },
  claims = {
    { text = "reading field 0 of 32-byte AoS records reads 32 DRAM bytes per record (model)",
      holds = function(ctx) return ctx.result.model.dram.read_bytes == 32 * ctx.result.params.n end },
    { text = "reading field 0 of 32-byte AoS records reads 30 to 34 DRAM bytes per record", gpu = true,
      holds = function(ctx)
        local per_record = ctx.result.dram.read_bytes / ctx.result.params.n
        return per_record >= 30 and per_record <= 34
      end },
  },
  explain = {
    en = [[With fields = 6 the launch reads 24 DRAM bytes per record (r.dram.read_bytes / r.params.n): records 24 bytes apart leave no sector and no 64-byte DRAM block untouched, so AoS pays for the whole record, 4 bytes used or 12. For the exercise as C lays it out, SoA of x, y, z reads 12 of 24 bytes: a 50% saving, not 62.5%.]],
    zh = [[fields = 6 时，每条记录从 DRAM 读 24 字节（r.dram.read_bytes / r.params.n）：记录相隔 24 字节，没有哪个扇区、哪个 64 字节的 DRAM 块能被跳过，所以不管用了 4 字节还是 12 字节，AoS 都要为整条记录付费。按 C 实际的布局，这道习题里 x、y、z 的 SoA 读 24 字节中的 12 字节：节省 50%，而不是 62.5%。]],
  },
}

step {
  text = {
    en = [[So is AoS always wrong? A float4 is a struct of four floats; copy with vec = 4 reads one whole 16-byte record per lane with a single vector load.]],
    zh = [[那么 AoS 总是错的吗？float4 就是一个由四个 float 组成的结构体；vec = 4 的 copy 让每个线程用一条向量读指令读入一整条 16 字节的记录。]],
  },
  run = [[v = launch("copy", {vec = 4, n = 1 << 24}); v]],
  ask = {
    question = { en = "Records of four floats, {x, y, z, w}, 16 bytes. Which of these kernels would gain (almost) nothing from a struct of arrays?",
                 zh = "记录是四个 float，{x, y, z, w}，16 字节。下面哪个核函数改成数组结构体后（几乎）得不到任何好处？" },
    choices = {
      { en = "One that reads x, y and z of each record (a position without its w)", zh = "读取每条记录的 x、y、z 的核函数（位置，不要 w）" },
      { en = "One that reads all four fields of each record, one float4 per thread", zh = "读取每条记录全部四个字段的核函数，每个线程一个 float4" },
      { en = "One that reads x of every record in a first pass and y in a second", zh = "第一遍读每条记录的 x、第二遍读 y 的核函数" },
      { en = "One that writes x and y of each record and leaves z and w alone", zh = "写每条记录的 x 和 y、不动 z 和 w 的核函数" },
    },
    answer = 2,
  },
  hint = {
    { en = "For each kernel: what share of the bytes the array of structs fetches (or writes) does it use? v's loads show one of them.",
      zh = "对每个核函数想一想：结构体数组取回（或写入）的字节里，它用到了多少？v 的读取显示的就是其中一种。" },
    { en = "A pass that uses 4 bytes of each 16-byte record fetches the whole record all the same; a store that covers half a sector pays write-allocate.",
      zh = "一遍只用每条 16 字节记录中 4 个字节的读取，照样要取回整条记录；只盖住半个扇区的写要付写分配的代价。" },
  },
  claims = {
    { text = "copy vec=4: 16 sectors per load request, all of the fetched bytes used",
      holds = function(ctx)
        return ctx.result.load.sectors_per_request == 16.0 and ctx.result.load.useful_fraction == 1.0
      end },
  },
  explain = {
    en = [[When a kernel uses every field, every byte AoS fetches is useful: v's loads are 16 sectors a request, all used, the best any layout can do. Even all seven particle fields would cost AoS only its pad (32 against 28 bytes). AoS is also the better layout when threads pick records at random (one record, one sector, instead of a sector per field) and where keeping a record together matters more than bandwidth. The chapter's rule: SoA when kernels use a few fields and bandwidth matters, AoS when they use all of them, and mixed layouts in between.]],
    zh = [[当核函数用到每个字段时，AoS 取回的每个字节都有用：v 的读取每请求 16 个扇区，全部用到，任何布局都做不到更好。即使粒子的七个字段全用上，AoS 也只多付填充的代价（32 字节对 28 字节）。线程随机挑选记录时，AoS 反而更好（一条记录一个扇区，而不是每个字段一个扇区）；需要把记录封装在一起、又不太在乎带宽时也是如此。章节的准则：核函数只用少数字段且带宽要紧时用 SoA，用到全部字段时用 AoS，两者之间可以用混合布局。]],
  },
}

-- The kernel of the staging step: positions as an array of structs, read field by field.
local POSITION_LENGTHS = {
  name = "length2",
  summary = "the aos-soa lab: the squared length of n positions {x, y, z}", summary_zh = "aos-soa 实验：n 个位置 {x, y, z} 的长度平方",
  skeleton = [==[
// length2: out[i] = x*x + y*y + z*z for n positions {x, y, z} stored as an
// array of structs (position i at pos[3*i]). One thread a position, in
// blocks of 256 threads. Each of its three loads reads one field.
extern "C" __global__ void length2(const float *pos, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
        out[i] = x * x + y * y + z * z;
    }
}
]==],
  solution = [==[
// length2, staged: the block copies its 256 positions into shared memory as
// one run of floats (neighbouring lanes, neighbouring floats), then each
// thread reads its own three from there.
extern "C" __global__ void length2(const float *pos, float *out, int n)
{
    __shared__ float tile[3 * 256];
    long long first = 3LL * blockIdx.x * blockDim.x;   // the block's first float
    for (int k = threadIdx.x; k < 3 * blockDim.x; k += blockDim.x)
        if (first + k < 3LL * n)
            tile[k] = pos[first + k];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = tile[3 * threadIdx.x], y = tile[3 * threadIdx.x + 1], z = tile[3 * threadIdx.x + 2];
        out[i] = x * x + y * y + z * z;
    }
}
]==],   -- the lab's own, for --check-lab
  params = { n = { default = 1 << 20, min = 256, max = 1 << 24 } },
  buffers = { pos = { type = "float", count = function(p) return 3 * p.n end },
              out = { type = "float", count = function(p) return p.n end, output = true } },
  args = { "pos", "out", "n" },
  grid = { function(p) return (p.n + 255) // 256 end },
  block = { 256 },
  reference = function(p, b)
    local pos, out = b.pos, b.out
    for i = 0, p.n - 1 do
      local x, y, z = pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]
      out[i] = x * x + y * y + z * z
    end
  end,
}

step {
  text = {
    en = [[When the data arrives as an array of structs and you cannot change its layout, a block can still read it coalesced: copy the block's records into shared memory as one run of floats, neighbouring lanes taking neighbouring floats, wait for the block (__syncthreads), and let each thread read its own fields from there. length2 computes the squared length of n positions {x, y, z}, 12 bytes each, reading each field straight from global memory. Run it, then rewrite it with :edit to stage its positions through shared memory.]],
    zh = [[如果数据以结构体数组的形式到来，而你又不能改变它的布局，线程块仍然可以合并地读它：把本线程块的记录当作一串连续的 float 拷进共享内存，相邻线程拷相邻的 float，等待整个线程块（__syncthreads），再让每个线程从那里读自己的字段。length2 计算 n 个位置 {x, y, z}（每个 12 字节）的长度平方，每个字段都直接从全局内存读。运行它，然后用 :edit 把它改成经由共享内存暂存这些位置。]],
  },
  kernel = POSITION_LENGTHS,
  run = [[r = launch("length2"); r]],
  ask = {
    goal = { en = "length2, correct, its global loads at 4 sectors per request, through shared memory.",
             zh = "`length2`，结果正确，全局读取每请求 4 个扇区，经由共享内存。" },
    solution = [[r = launch("length2")]],
    needs = { kernel = "length2", correct = true, load_sectors = 4, shared = true },
  },
  hint = {
    { en = "Each field load of the given kernel spreads a warp over 32 positions, 384 bytes. Which index would make neighbouring lanes read neighbouring floats?",
      zh = "给出的核函数每次读一个字段，一个 warp 就分散在 32 个位置、384 字节上。用什么下标能让相邻线程读相邻的 float？", cause = "load_sectors" },
    { en = "The block's positions are 3 × blockDim.x floats from 3 × blockIdx.x × blockDim.x on: a loop k = threadIdx.x, k += blockDim.x copies them into a __shared__ float array, one float a lane at a time.",
      zh = "本线程块的位置是从 3 × blockIdx.x × blockDim.x 开始的 3 × blockDim.x 个 float：用循环 k = threadIdx.x，k += blockDim.x 把它们拷进一个 __shared__ float 数组，每个线程每次一个 float。", cause = { "load_sectors", "shared" } },
    { en = "Declare the tile as __shared__ float tile[3 * 256], copy into it, call __syncthreads(), and only then read tile[3 * threadIdx.x] and the two after it.",
      zh = "把分块声明成 `__shared__ float tile[3 * 256]`，拷进去，调用 __syncthreads()，之后才读 tile[3 * threadIdx.x] 和它后面的两个。", cause = "shared" },
    { en = "The result names the first wrong element. A thread may read from the tile only after __syncthreads(), and only floats that were copied there: check the bounds of the copy against 3 × n.",
      zh = "结果里写出了第一个错误的元素。线程只能在 __syncthreads() 之后读分块，而且只能读拷进去了的 float：检查拷贝的边界是否对照 3 × n。", cause = "output" },
    { en = "Run r = launch(\"length2\") after your edit: the goal is judged on your last launch.",
      zh = "改完后运行 r = launch(\"length2\")：目标按你最近的一次启动来判断。", cause = "kernel" },
  },
  claims = {
    { text = "the given length2 is correct and reads 12 sectors per load request (positions 12 bytes apart)",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 12 and r.store.sectors_per_request == 4
      end },
    { text = "the model: the given length2 and a staged one read the same DRAM bytes (each position once)",
      holds = function(ctx)
        local r = ctx.result
        return r.model.dram.read_bytes == 12 * r.params.n
      end },
    { text = "the given length2: L2 serves L1 under half the sectors its loads touch (the y and z loads find the sectors x brought)", gpu = true,
      holds = function(ctx)
        local r, c = ctx.result, ctx.result.counters
        return c ~= nil and c.l2_read_sectors.value < 0.5 * r.load.sectors
      end },
  },
  explain = {
    en = [[The copy loop reads 3 × 256 floats a block, 32 neighbouring floats a request: 4 sectors, every byte used, where the given kernel's three field loads each touched 12 sectors for 128 useful bytes. DRAM saw no difference (each position was read once either way, and L1 caught the y and z loads from the sectors x brought); what the staging saves is sectors and L1 work, and it works for records of any size. Reading tile[3 * t] is conflict-free: an odd stride of words puts the 32 lanes in 32 banks, the matrices lab's +1 seen from the other side. With records of 4 floats the stride would be even, and ptxas would read each record's 16 bytes with one LDS.128 instead (lines() shows which). A float4 load, where the record is 16 bytes and aligned, gets the same coalescing without shared memory.]],
    zh = [[拷贝循环每个线程块读 3 × 256 个 float，每个请求读 32 个相邻的 float：4 个扇区，每个字节都用上，而给出的核函数每读一个字段就碰 12 个扇区，只为 128 个有用字节。DRAM 没有区别（无论哪种写法，每个位置都只读一次，y 和 z 的读取在 L1 里找到了 x 带来的扇区）；暂存省下的是扇区和 L1 的工作，而且对任何大小的记录都适用。读 tile[3 * t] 没有存储体冲突：奇数的字步长让 32 个线程落在 32 个存储体上，这就是矩阵实验里的加一，换了个角度看。如果记录是 4 个 float，步长是偶数，ptxas 会改用一条 LDS.128 读一条记录的 16 个字节（lines() 会显示是哪一种）。记录是 16 字节并且对齐时，用 float4 读取不经过共享内存也能得到同样的合并。]],
  },
}

step {
  text = {
    en = [[Summing up: in an array of structs a warp touching one field spreads over whole records, so the sectors grow with the record; a sector the launch's stores leave incomplete also makes L2 read it from DRAM. A struct of arrays keeps every field access at 4 sectors. When data arrives as AoS, a block can load it coalesced into shared memory and work on it there field by field, as you did with length2 (the notes' suggestion). Type :next to finish.]],
    zh = [[小结：在结构体数组里，一个 warp 访问同一个字段会铺满整条整条的记录，所以扇区数随记录大小增长；一次启动的写没有补齐的扇区，还会让 L2 从 DRAM 读入该扇区。数组结构体让每次字段访问都保持 4 个扇区。如果数据本来就是 AoS，可以由一个线程块合并地把它读进共享内存，再在那里按字段处理，就像你对 `length2` 做的那样（这是笔记里的建议）。输入 :next 结束。]],
  },
}
