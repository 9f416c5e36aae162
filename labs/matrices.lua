-- matrices: walking a row-major matrix by rows and by columns, what a 2-D
-- block shape puts into a warp, the transpose (naive, through a shared tile,
-- padded), shared-memory banks and the +1 padding.

lab {
  title = { en = "Matrices: rows, columns, transposes and banks", zh = "矩阵：行、列、转置与存储体" },
  topics = { "row-major", "column walk", "2-D blocks", "transpose", "shared memory", "bank conflicts", "padding" },
  minutes = 45,   -- about how long a student takes, by its authors' estimate
}

local function per_request(t) return t.wavefronts / t.requests end

local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end

-- On a device whose DRAM is slow for its SMs the model's DRAM or latency
-- term outweighs the shared-memory or L2 store term a transpose pays for,
-- and it takes the padded transpose's time there.
local function limited_elsewhere(ctx, r, key)
  if r.model.limit_key ~= key then
    return { en = string.format("on %s (%.0f GB/s) the model finds the %s transpose limited by %s", ctx.device.name,
                                ctx.device.peak_gbs, r.params.variant, r.model.limit),
             zh = string.format("在 %s（%.0f GB/s）上，模型认为 %s 转置的瓶颈是%s", ctx.device.name,
                                ctx.device.peak_gbs, r.params.variant, r.model.limit_zh) }
  end
end

step {
  text = {
    en = [[A C matrix is stored row-major: the floats of one row sit side by side, and element (r, c) of a rows x cols matrix is element r*cols + c of one long array. Stepping along a row moves 4 bytes; stepping down a column moves a whole row. The traverse family computes out = 2 * in over a 4096 x 4096 matrix with 2-D blocks; with order = "row" the lanes of a warp (consecutive threadIdx.x) walk along a row. show(r) draws warp 0: one line of cells per 128 bytes touched.]],
    zh = [[C 语言的矩阵按行优先存储：同一行的 float 紧挨着，rows x cols 矩阵的元素 (r, c) 就是一个长数组里的第 r*cols + c 个元素。沿着一行走一步移动 4 字节；沿着一列往下走一步要跨过整整一行。traverse 族在 4096 x 4096 的矩阵上用二维线程块计算 `out` = 2 * `in`；order = "row" 时，一个 warp 的各个线程（threadIdx.x 连续）沿着一行走。show(r) 画出 warp 0：每碰到 128 字节就画一行格子。]],
  },
  run = [[r = launch("traverse", {order = "row", block = {32, 8}}); show(r)]],
  ask = {
    question = { en = "How many bytes apart are in[r][c] and in[r+1][c] in this matrix?",
                 zh = "在这个矩阵里，in[r][c] 和 in[r+1][c] 相隔多少字节？" },
    answer = function(ctx) return 4 * ctx.result.params.cols end,
    tolerance = 0, unit = "bytes",
  },
  hint = {
    { en = "One row holds cols floats (r.params.cols).", zh = "一行有 cols 个 float（r.params.cols）。" },
    { en = "cols x 4 bytes.", zh = "cols x 4 字节。" },
  },
  explain = {
    en = [[16,384 bytes: 4096 floats of 4 bytes. Along a row the warp's 32 lanes read 128 contiguous, aligned bytes: 4 sectors, one line, the ideal. Down a column, neighbouring lanes would be 16 KB apart, each in a line of its own.]],
    zh = [[16,384 字节：4096 个 4 字节的 float。沿着一行，warp 的 32 个线程读取 128 个连续且对齐的字节：4 个扇区、一条缓存行，这是理想情况。沿着一列往下走，相邻线程就相隔 16 KB，各自落在不同的缓存行里。]],
  },
}

step {
  text = {
    en = [[Now the same kernel with order = "col": threadIdx.x runs down a column, so lane k reads row r+k of the same column, and writes out the same way. Before you run it, predict: how many sectors does one load request touch?]],
    zh = [[现在用 order = "col" 运行同一个核函数：threadIdx.x 沿着一列往下走，所以第 k 个线程读同一列的第 r+k 行，写 `out` 时也一样。运行之前先预测：一个读请求碰到多少个扇区？]],
  },
  run = [[c = launch("traverse", {order = "col", block = {32, 8}}); c]],
  ask = {
    predict = { en = "Load sectors per request of the column walk?", zh = "按列遍历时每个读请求的扇区数？" },
    measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "column walk, block {32,8}: 32 sectors per load request and per store request; the row walk 4",
      holds = function(ctx)
        local row = launch("traverse", {order = "row", block = {32, 8}})
        return ctx.result.load.sectors_per_request == 32 and ctx.result.store.sectors_per_request == 32 and
               row.load.sectors_per_request == 4 and row.store.sectors_per_request == 4
      end },
  },
  explain = {
    en = [[32: every lane's 4 bytes lie in a line of their own, a row (16 KB) from the next lane's, so every lane costs a 32-byte sector: 128 useful bytes in 1024 fetched, 12.5%. The stores are just as scattered: each lane writes 4 bytes of a sector of its own.]],
    zh = [[32 个：每个线程的 4 个字节各自落在一条缓存行里，与下一个线程相隔一行（16 KB），所以每个线程都要一个 32 字节扇区：取回 1024 字节只用到 128 字节，12.5%。写操作同样分散：每个线程只写自己那个扇区里的 4 个字节。]],
  },
}

step {
  text = {
    en = [[Sectors are counts; what do they cost in time? Launch both walks in one call and compare them. On a GPU the times are measured (the model's figure is printed beside them); on the sim backend both are the model's, and its limit for the column walk is the L2 store sectors: one for every 128-byte line a warp writes, 32 a store request against the row walk's 1. The chapter warns that a column walk can be several times slower; find out on your device.]],
    zh = [[扇区数只是计数；它们在时间上代价多大？在一次调用里启动两种遍历并比较。在 GPU 上时间是实测的（旁边印着模型的估算）；在模拟后端上两者都是模型的估算，模型认为按列遍历的瓶颈是 L2 写入扇区：一个 warp 写到的每条 128 字节缓存行记一个，按列遍历每个写请求 32 个，按行遍历只有 1 个。本章提醒说按列遍历可能慢好几倍；在你的设备上看看到底如何。]],
  },
  run = [[s = launch("traverse", {{order = "row"}, {order = "col"}}); c = compare(s[1], s[2]); c]],
  ask = {
    predict = { en = "How many times as long as the row walk will the column walk take?",
                zh = "按列遍历所用的时间会是按行遍历的多少倍？" },
    measure = function(ctx)
      local row, col = find(ctx.results, {order = "row"}), find(ctx.results, {order = "col"})
      if row and col then return time_of(col) / time_of(row), col.model.time_ms / row.model.time_ms end
    end,
    unit = "times",
  },
  claims = {
    { text = "the model: the column walk is limited by L2 store sectors, and takes longer than the row walk",
      holds = function(ctx)
        local row, col = find(ctx.results, {order = "row"}), find(ctx.results, {order = "col"})
        return col.model.limit_key == "l2_stores" and col.model.time_ms > row.model.time_ms
      end },
    { text = "the column walk (block {32,8}) takes at least 1.3 times as long as the row walk", gpu = true,
      holds = function(ctx)
        local row, col = find(ctx.results, {order = "row"}), find(ctx.results, {order = "col"})
        return time_of(col) >= 1.3 * time_of(row)
      end },
  },
  explain = {
    en = [[Both walks move the same useful bytes. The column walk makes L1 handle 32 sectors for every request instead of 4, and each of its stores writes one eighth of a sector, which L2 must merge with the neighbouring warps' writes. The model charges that merging in its L2 store term, one sector for each 128-byte line a warp writes, and puts the column walk at about 4.4 times the row walk's time on the H200 profile; the H200 measured 4.51 (4096 x 4096, 2026-12-02).]],
    zh = [[两种遍历搬运的有用字节一样多。按列遍历让 L1 每个请求处理 32 个扇区而不是 4 个，而且每次写只写一个扇区的八分之一，L2 还要把相邻 warp 的写合并起来。模型在它的 L2 写入项里计入这种合并：一个 warp 写到的每条 128 字节缓存行记一个扇区，在 H200 配置下按列遍历的时间约为按行遍历的 4.4 倍；H200 实测 4.51 倍（4096 x 4096，2026-12-02）。]],
  },
}

step {
  text = {
    en = [[The names row and col only say which index threadIdx.x walks. What one warp covers is decided by the block shape: warps are cut from a block's threads x-fastest, so a {16, 16} block puts two half-rows into each warp. That is the chapter's "column-major" kernel: its block is 16 x 16 and threadIdx.x picks the column, so neighbouring lanes read neighbouring floats of a row; despite its name and its comment (stride = cols) it reads half-rows, 4 sectors per request, in two lines. With order = "col" a narrow block does the opposite trick: lanes 0-3 take four rows of one column, lanes 4-7 the same rows of the next column, and so on. Goal: keep order = "col" and find a block shape with 4 load sectors per request.]],
    zh = [[row 和 col 这两个名字只说明 threadIdx.x 沿哪个下标走。一个 warp 覆盖哪些元素，是由线程块形状决定的：warp 按 x 优先从线程块里切出来，所以 {16, 16} 的线程块让每个 warp 装两段半行。这正是本章那个“按列访问”的核函数：它的线程块是 16 x 16，threadIdx.x 选的是列，所以相邻线程读的是同一行里相邻的 float；尽管名字和注释（stride = cols）都说按列，它实际读的是半行，每请求 4 个扇区，分布在两条缓存行里。order = "col" 时，窄的线程块反过来起作用：线程 0-3 取一列里的四行，线程 4-7 取下一列的同样四行，依此类推。目标：保持 order = "col"，找一个让每个读请求只碰 4 个扇区的线程块形状。]],
  },
  run = [[r = launch("traverse", {order = "col", block = {16, 16}}); show(r)]],
  ask = {
    goal = { en = "traverse with order = \"col\" and 4.00 load sectors per request.",
             zh = "traverse，order = \"col\"，每读请求 4.00 个扇区。" },
    solution = [[launch("traverse", {order = "col", block = {4, 64}})]],
    needs = { kernel = "traverse", params = { order = "col" }, load_sectors = 4 },
  },
  hint = {
    { en = "A sector holds 8 floats of one row. With order = \"col\", the y direction of the block walks along the row.",
      zh = "一个扇区装一行里的 8 个 float。order = \"col\" 时，线程块的 y 方向沿着行走。" },
    { en = "If blockDim.x is 4, a warp of 32 lanes covers 4 rows and 8 columns.", zh = "如果 blockDim.x 是 4，一个 32 线程的 warp 覆盖 4 行、8 列。" },
  },
  claims = {
    { text = "a {16,16} row walk touches 4 sectors in 2 lines per load request",
      holds = function(ctx)
        local r = launch("traverse", {order = "row", block = {16, 16}})
        return r.load.sectors_per_request == 4 and r.load.lines == 2 * r.load.requests
      end },
    { text = "a {4,64} column walk touches 4 sectors per load and store request",
      holds = function(ctx)
        local r = launch("traverse", {order = "col", block = {4, 64}})
        return r.load.sectors_per_request == 4 and r.store.sectors_per_request == 4
      end },
  },
  explain = {
    en = [[{4, 64}, {2, 128} and {1, 256} all reach 4 sectors: each row's part of the warp is at least 8 consecutive floats, a whole sector. {4, 64} and {2, 128} still spread a request over 4 or 2 lines, where a {32, 8} row walk needs one; {1, 256} is a row walk in disguise: with one thread in x, the y direction is the row. Whatever you name the loop, count what one warp touches.]],
    zh = [[{4, 64}、{2, 128} 和 {1, 256} 都能做到 4 个扇区：warp 在每一行里取的至少是连续 8 个 float，正好一个扇区。{4, 64} 和 {2, 128} 的一个请求仍要跨 4 条或 2 条缓存行，而 {32, 8} 的按行遍历只要 1 条；{1, 256} 其实就是换了个样子的按行遍历：x 方向只有一个线程，y 方向就是行。不管循环叫什么名字，都要数一个 warp 实际碰到了什么。]],
  },
}

step {
  text = {
    en = [[The chapter's third traversal first stages a 16 x 16 tile in shared memory, then writes it back from there. order = "tiled" does the same. Each element is still read once and written once.]],
    zh = [[本章的第三种遍历先把 16 x 16 的分块放进共享内存，再从那里写回。order = "tiled" 做的是同样的事。每个元素仍然只读一次、写一次。]],
  },
  run = [[s = launch("traverse", {{order = "row", block = {16, 16}}, {order = "tiled", block = {16, 16}}}); c = compare(s[1], s[2]); c]],
  ask = {
    question = { en = "What does staging the tile in shared memory save over the plain row walk?",
                 zh = "与直接按行遍历相比，把分块放进共享内存省下了什么？" },
    choices = {
      { en = "Half of the global load sectors: the block fetches each of its sectors once instead of once per row of threads.",
        zh = "一半的全局读扇区：线程块只取一次它的每个扇区，而不是每行线程各取一次。" },
      { en = "Nothing: the same global sectors, plus a shared store and a shared load per element.",
        zh = "什么也没省：全局扇区一样多，每个元素还多了一次共享内存写和一次共享内存读。" },
      { en = "The DRAM reads that partly written sectors would otherwise cost (write-allocate).",
        zh = "部分写入的扇区本来会引起的 DRAM 读取（写分配）。" },
      { en = "Most of the load requests: the tile is copied in fewer, wider instructions.",
        zh = "大部分读请求：分块用更少、更宽的指令拷贝。" },
    },
    answer = function(ctx)
      local row, tiled = find(ctx.results, {order = "row"}), find(ctx.results, {order = "tiled"})
      if not (row and tiled) then return nil end
      if tiled.load.sectors < row.load.sectors then return 1 end
      if tiled.load.requests < row.load.requests then return 4 end
      if tiled.dram.read_bytes < row.dram.read_bytes then return 3 end
      return 2
    end,
  },
  hint = {
    { en = "Read the compare() table row by row: load requests, load sectors, DRAM read. Which of them is lower for the tiled walk?",
      zh = "逐行读 compare() 表：“读取请求数”“读取扇区数”“DRAM 读取”。分块遍历哪一项更少？" },
  },
  claims = {
    { text = "the tiled traversal has the same global load and store sectors as the row walk",
      holds = function(ctx)
        local row, tiled = find(ctx.results, {order = "row"}), find(ctx.results, {order = "tiled"})
        return tiled.load.sectors == row.load.sectors and tiled.store.sectors == row.store.sectors
      end },
    { text = "staging the tile saves no time: the tiled traversal takes at least 95% of the row walk's time", gpu = true,
      holds = function(ctx)
        local row, tiled = find(ctx.results, {order = "row"}), find(ctx.results, {order = "tiled"})
        return time_of(tiled) >= 0.95 * time_of(row)
      end },
  },
  explain = {
    en = [[Nothing. Shared memory pays when a block reuses what it loaded (the tiling lab: matrix multiply, a convolution's halo), or when the order of the data must change between reading and writing, as in the transpose next. A pass that touches each element once, already in the best order, has nothing to gain.]],
    zh = [[什么也没省。共享内存只在两种情况下有回报：线程块会重复使用它读进来的数据（见 tiling 实验：矩阵乘法、卷积的边缘区），或者读和写之间数据的顺序必须改变，比如下一步的转置。每个元素只碰一次、而且已经是最佳顺序的遍历，没有什么可省的。]],
  },
}

step {
  text = {
    en = [[Exercise 8 of the chapter: a transpose, out (cols x rows) = the transpose of in. The naive kernel reads a row of in, coalesced, and writes it as a column of out: neighbouring lanes write a whole output row apart. Before you run it, predict the store sectors per request with tile = 32 (blocks of 32 x 32 threads).]],
    zh = [[本章第 8 题：矩阵转置，`out`（cols x rows）= `in` 的转置。朴素核函数按行读 `in`（合并访问），再把它写成 `out` 的一列：相邻线程写的位置相隔 `out` 的整整一行。运行之前先预测：tile = 32（32 x 32 个线程的线程块）时，每个写请求碰到多少个扇区？]],
  },
  run = [[t = launch("transpose", {variant = "naive", tile = 32}); show(t)]],
  ask = {
    predict = { en = "Store sectors per request of the naive transpose?", zh = "朴素转置每个写请求的扇区数？" },
    measure = function(ctx) return ctx.result.store.sectors_per_request, ctx.result.model.store.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "naive transpose, tile 32: 4 sectors per load request, 32 per store request",
      holds = function(ctx)
        return ctx.result.load.sectors_per_request == 4 and ctx.result.store.sectors_per_request == 32
      end },
  },
  explain = {
    en = [[32: the reads are a perfect row, the writes a column, one sector per lane. With tile 16 a warp spans two rows of the block, so pairs of lanes share a sector (16 per request), and with tile 8, four rows (8): the block shape again. Either way one side of a transpose walks a column; to make both sides walk rows, the data must be reordered on chip.]],
    zh = [[32 个：读是完整的一行，写是一列，每个线程一个扇区。tile = 16 时一个 warp 跨线程块的两行，所以每两个线程共用一个扇区（每请求 16 个）；tile = 8 时跨四行（8 个）：又是线程块形状的作用。无论如何，转置总有一边是在走列；要让两边都走行，数据必须在片上重新排列。]],
  },
}

step {
  text = {
    en = [[The cure: each block reads a tile of in, row by row, into shared memory, waits for the whole block (__syncthreads), then writes rows of out from the columns of the tile. Both global sides now read and write rows. But shared memory has a rule of its own: it is split into 32 banks of 4-byte words, word w in bank w mod 32, and one warp request takes as many passes (wavefronts) as the busiest bank has distinct words to serve. In a 32 x 32 float tile the words of one column are 32 apart. show(t) draws, for each shared access, how many words each bank serves.]],
    zh = [[解决办法：每个线程块按行把 `in` 的一个分块读进共享内存，等整个线程块读完（__syncthreads），再从分块的列读出数据，按行写 `out`。这样全局内存两边都是按行读写。但共享内存有它自己的规则：它分成 32 个存储体，每个 4 字节宽，第 w 个字在第 w `mod` 32 个存储体里；一个 warp 请求需要的传送次数（wavefront），等于最忙的那个存储体要服务的不同字数。在 32 x 32 的 float 分块里，同一列的字相隔 32 个字。show(t) 会为每次共享内存访问画出每个存储体要服务几个字。]],
  },
  run = [[t = launch("transpose", {variant = "shared", tile = 32}); show(t)]],
  ask = {
    question = { en = "How many wavefronts does one shared-load request (reading a column of the tile) take?",
                 zh = "一个共享内存读请求（读分块的一列）需要多少次 wavefront？" },
    answer = function(ctx)
      local r = ctx.result
      return r.shared_load and per_request(r.shared_load)
    end,
    tolerance = 0.05, unit = "wavefronts",
  },
  hint = {
    { en = "Look at the 'shared load' line of the map: how many words does bank 0 serve?", zh = "看图里“共享内存读取”那一段：存储体 0 要服务几个字？" },
    { en = "r.shared_load.wavefronts / r.shared_load.requests", zh = "r.shared_load.wavefronts / r.shared_load.requests" },
  },
  claims = {
    { text = "shared transpose, tile 32: 4 sectors per global load and store request, 32 wavefronts per shared load request, 1 per shared store",
      holds = function(ctx)
        local r = ctx.result
        return r.load.sectors_per_request == 4 and r.store.sectors_per_request == 4 and
               per_request(r.shared_load) == 32 and per_request(r.shared_store) == 1
      end },
  },
  explain = {
    en = [[32: all 32 words of the column sit in one bank, so the warp's reads are served one after another, a 32-way bank conflict. Writing a tile row hits 32 different banks: one wavefront. The model charges shared-memory wavefronts in a term of their own, and here they are its limit: about 1.9 times the time of the padded tile of the last step on the H200 profile (the H200 measured 1.78 at 4096 x 4096, 2026-12-02). On a GPU the conflicts show in the time and in the shared_load_conflicts counter (explain("shared_load_conflicts")).]],
    zh = [[32 次：这一列的 32 个字都在同一个存储体里，所以 warp 的读只能一个接一个地服务，这就是 32 路存储体冲突。写分块的一行碰到 32 个不同的存储体：一次 wavefront。模型把共享内存的 wavefront 单独算作一项，在这里它就是瓶颈：在 H200 配置下，时间约为最后一步加了填充的分块的 1.9 倍（H200 实测 1.78 倍，4096 x 4096，2026-12-02）。在 GPU 上冲突会体现在时间和 shared_load_conflicts 计数器上（explain("shared_load_conflicts")）。]],
  },
}

step {
  text = {
    en = [[The bank family isolates the rule: lane l reads float l*stride of a shared tile (7 times, one bank further each time). Sweep the stride from 0 to 32 and chart the bank conflicts.]],
    zh = [[bank 族把这条规则单独拿出来：第 l 个线程读共享内存分块里的第 l*stride 个 float（读 7 次，每次整体往后挪一个存储体）。把 stride 从 0 扫到 32，画出存储体冲突数。]],
  },
  run = [[s = sweep("bank", {stride = range(0, 32), y = "bank_conflicts"})]],
  ask = {
    question = { en = "How many wavefronts does one shared-load request take at stride 12?",
                 zh = "stride 为 12 时，一个共享内存读请求需要多少次 wavefront？" },
    answer = function(ctx)
      local r = find(ctx.results, {stride = 12, bytes = 4, lanes = 32})
      return r and per_request(r.shared_load)
    end,
    tolerance = 0.05, unit = "wavefronts",
  },
  hint = {
    { en = "Lanes l and l+8 read words 96 apart, and 96 is a multiple of 32: the same bank.", zh = "线程 l 和 l+8 读的字相隔 96，而 96 是 32 的倍数：同一个存储体。" },
    { en = "How many of the 32 lanes land in each bank that is used? It is gcd(12, 32).", zh = "每个被用到的存储体里落了几个线程？就是 gcd(12, 32)。" },
  },
  claims = {
    { text = "a 4-byte stride s costs gcd(s, 32) wavefronts per request for s = 1..32, and stride 0 (a broadcast) one",
      holds = function(ctx)
        for s = 0, 32 do
          local r = find(ctx.results, {stride = s})
          local want = s == 0 and 1 or gcd(s, 32)
          if not r or per_request(r.shared_load) ~= want then return false end
        end
        return true
      end },
  },
  explain = {
    en = [[4 = gcd(12, 32): the lanes use only 8 banks, 4 lanes in each. Every odd stride reaches all 32 banks and is free; stride 0 is a broadcast (all lanes read one word: one wavefront); stride 32 is the transpose's column, 32-way. The reference notes say an array of structs makes neighbouring lanes fall into the same bank: that holds for even struct sizes (2 or 4 floats: 2- and 4-way), not for odd ones such as 3 floats.]],
    zh = [[4 = gcd(12, 32)：这些线程只用到 8 个存储体，每个存储体 4 个线程。所有奇数步长都能用满 32 个存储体，没有冲突；stride 0 是广播（所有线程读同一个字：一次 wavefront）；stride 32 就是转置里读列的情况，32 路冲突。参考笔记说结构体数组会让相邻线程落进同一个存储体：这对偶数大小的结构体成立（2 或 4 个 float：2 路和 4 路冲突），对 3 个 float 这样的奇数大小则不成立。]],
  },
}

step {
  text = {
    en = [[Wider elements and fewer lanes. A request of 8-byte elements is served in two halves of 16 lanes, 16-byte elements in four quarters, 128 bytes each: two or four wavefronts even with no conflict at all (the ideal wavefronts). And with stride 32, only the lanes that read collide: lanes = 4 leaves 4 words in bank 0.]],
    zh = [[更宽的元素、更少的线程。8 字节元素的请求分两半服务，每半 16 个线程；16 字节元素分四份，每份 128 字节：即使完全没有冲突，也要两次或四次 wavefront（理想 wavefront 数）。而 stride 为 32 时，只有真正在读的线程才会冲突：lanes = 4 时存储体 0 里只有 4 个字。]],
  },
  run = [[s = launch("bank", {{bytes = 8, stride = 1}, {bytes = 16, stride = 1}, {stride = 32, lanes = 4}})
for _, r in ipairs(s) do
  print(string.format("bytes %2d  lanes %2d  %.0f wavefronts per request  %.0f bank conflicts", r.params.bytes,
                      r.params.lanes, r.shared_load.wavefronts / r.shared_load.requests, r.shared_load.bank_conflicts))
end]],
  ask = {
    question = { en = "How many wavefronts does one shared-load request of 16-byte elements (stride 1) take?",
                 zh = "16 字节元素（stride 1）的一个共享内存读请求需要多少次 wavefront？" },
    answer = function(ctx)
      local r = find(ctx.results, {bytes = 16, stride = 1})
      return r and per_request(r.shared_load)
    end,
    tolerance = 0.05, unit = "wavefronts",
  },
  hint = { { en = "32 lanes x 16 bytes = 512 bytes, served 128 bytes at a time.", zh = "32 个线程 x 16 字节 = 512 字节，每次服务 128 字节。" } },
  claims = {
    { text = "stride 1: 8-byte elements take 2 wavefronts and 16-byte ones 4, without conflicts; stride 32 with 4 lanes is 4-way",
      holds = function(ctx)
        local r8, r16 = find(ctx.results, {bytes = 8, stride = 1}), find(ctx.results, {bytes = 16, stride = 1})
        local r4 = find(ctx.results, {stride = 32, lanes = 4})
        return per_request(r8.shared_load) == 2 and r8.shared_load.bank_conflicts == 0 and
               per_request(r16.shared_load) == 4 and r16.shared_load.bank_conflicts == 0 and
               per_request(r4.shared_load) == 4
      end },
  },
  explain = {
    en = [[4 wavefronts, and no bank conflict: the ideal is 4 too, since 512 bytes cannot pass in fewer 128-byte phases. A conflict is only what goes beyond the ideal. Reading float2 or float4 from shared memory moves the same 128 bytes per wavefront as float does, with fewer instructions.]],
    zh = [[4 次 wavefront，但没有存储体冲突：理想值也是 4，因为 512 字节不可能用少于 4 个 128 字节的阶段传完。只有超出理想值的部分才算冲突。从共享内存读 float2 或 float4，每次 wavefront 搬的仍是 128 字节，和 float 一样，只是指令更少。]],
  },
}

step {
  text = {
    en = [[The +1: declare the tile as float tile[32][33]. The words of a column are now 33 apart, an odd stride, so a column falls on 32 different banks, and the extra float per row costs only 32 of 1056 floats. Goal: launch a transpose whose global loads and stores are both 4 sectors per request and whose shared loads have no bank conflicts.]],
    zh = [[加一：把分块声明成 `float tile[32][33]`。这样同一列的字相隔 33 个，是奇数步长，一列正好落在 32 个不同的存储体上；每行多出的那个 float 只占 1056 个 float 里的 32 个。目标：启动一个转置，让全局读和写都是每请求 4 个扇区，而且共享内存读没有存储体冲突。]],
  },
  run = [[t = launch("transpose", {variant = "shared", tile = 32}); show(t)]],
  ask = {
    goal = { en = "transpose: 4.00 load and store sectors per request, no shared-load bank conflicts.",
             zh = "transpose：读和写都是每请求 4.00 个扇区，共享内存读没有存储体冲突。" },
    solution = [[launch("transpose", {variant = "padded", tile = 32})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "transpose" and r.load.sectors_per_request <= 4.0 and r.store.sectors_per_request <= 4.0 and
             r.shared_load ~= nil and r.shared_load.bank_conflicts <= 0.01 * r.shared_load.requests
    end,
  },
  hint = {
    { en = "info(\"transpose\") lists the variants: which one has the tile's rows one float longer?",
      zh = "info(\"transpose\") 列出了各个版本：哪一个的分块每行多一个 float？" },
    { en = "Run show() on your launch and count the words per bank; then try a smaller tile and count again: how many rows of the tile does a warp hold?",
      zh = "对你的启动运行 show()，数一数每个存储体的字数；再试一个更小的 `tile` 值再数：一个 warp 包含分块的几行？" },
  },
  claims = {
    { text = "padded transpose, tile 32: no bank conflicts on its shared loads or stores",
      holds = function(ctx)
        local r = launch("transpose", {variant = "padded", tile = 32})
        return r.shared_load.bank_conflicts == 0 and r.shared_store.bank_conflicts == 0
      end },
    { text = "padded transpose, tile 16: still 2 wavefronts per shared load request",
      holds = function(ctx)
        local r = launch("transpose", {variant = "padded", tile = 16})
        return per_request(r.shared_load) == 2
      end },
    { text = "tile 32: the model puts the padded transpose ahead of the unpadded shared one and of the naive one",
      skip = function(ctx)
        return limited_elsewhere(ctx, launch("transpose", {variant = "shared", tile = 32}), "shared") or
               limited_elsewhere(ctx, launch("transpose", {variant = "naive", tile = 32}), "l2_stores")
      end,
      holds = function(ctx)
        local runs = launch("transpose", {{variant = "naive", tile = 32}, {variant = "shared", tile = 32},
                                          {variant = "padded", tile = 32}})
        local naive, shared, padded = find(runs, {variant = "naive"}), find(runs, {variant = "shared"}),
                                      find(runs, {variant = "padded"})
        return padded.model.time_ms < shared.model.time_ms and padded.model.time_ms < naive.model.time_ms
      end },
    { text = "tile 32: the padded transpose is faster than the unpadded shared one and than the naive one", gpu = true,
      holds = function(ctx)
        local runs = launch("transpose", {{variant = "naive", tile = 32}, {variant = "shared", tile = 32},
                                          {variant = "padded", tile = 32}})
        local naive, shared, padded = find(runs, {variant = "naive"}), find(runs, {variant = "shared"}),
                                      find(runs, {variant = "padded"})
        return time_of(padded) < time_of(shared) and time_of(padded) < time_of(naive)
      end },
  },
  explain = {
    en = [[variant = "padded", tile 32: one wavefront per shared load, both global sides coalesced. With tile 16 or 8 a warp holds two or four tile rows, and no row length spreads all of them over 32 banks: the model shows 2-way conflicts on both shared accesses. The model charges both costs, the conflicted tile's shared wavefronts and the naive transpose's scattered stores (L2 store sectors), and on the H200 profile puts them at about 1.9 and 4.4 times the padded tile's time; the H200 measured 1.78 and 3.33 (4096 x 4096, 2026-12-02).]],
    zh = [[variant = "padded"，tile = 32：每个共享内存读只要一次 wavefront，全局读写两边都是合并访问。tile = 16 或 8 时，一个 warp 包含分块的两行或四行，没有哪种行长能把它们全部分散到 32 个存储体上：模型显示两种共享内存访问都有 2 路冲突。模型把两种代价都算在内：有冲突的分块的共享内存 wavefront，以及朴素转置分散的写入（L2 写入扇区）；在 H200 配置下，它们的时间约为加了填充的分块的 1.9 倍和 4.4 倍；H200 实测 1.78 倍和 3.33 倍（4096 x 4096，2026-12-02）。]],
  },
}

-- The kernel of the last step: a row per thread, so a warp walks 32 rows at once.
local ROW_SUMS = {
  name = "row_sums",
  summary = "the matrices lab: the sum of each row of an n x n matrix", summary_zh = "矩阵实验：n x n 矩阵每一行的和",
  skeleton = [==[
// row_sums: out[r] = a[r*n] + a[r*n + 1] + ... + a[r*n + n - 1] for an n x n
// matrix stored row by row. One thread a row, in blocks of 256 threads: at
// each step of its loop a warp reads one element from each of 32 rows.
extern "C" __global__ void row_sums(const float *a, float *out, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n) {
        float sum = 0.0f;
        for (int c = 0; c < n; c++)
            sum += a[(long long)r * n + c];
        out[r] = sum;
    }
}
]==],
  solution = [==[
// row_sums, a warp a row at a time: each warp takes its own 32 rows one after
// another; its lanes read neighbouring elements of the row, add up their
// share, and the warp's shuffles add the 32 shares. Lane k keeps row k's sum,
// so the warp stores its 32 sums side by side.
extern "C" __global__ void row_sums(const float *a, float *out, int n)
{
    int lane = threadIdx.x % 32;
    int first = blockIdx.x * blockDim.x + threadIdx.x - lane;   // the warp's first row
    float mine = 0.0f;
    for (int k = 0; k < 32 && first + k < n; k++) {
        const float *row = a + (long long)(first + k) * n;
        float sum = 0.0f;
        for (int c = lane; c < n; c += 32)
            sum += row[c];
        for (int step = 16; step > 0; step /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, step);
        sum = __shfl_sync(0xffffffffu, sum, 0);
        if (lane == k)
            mine = sum;
    }
    if (first + lane < n)
        out[first + lane] = mine;
}
]==],   -- the lab's own, for --check-lab
  params = { n = { default = 1024, min = 32, max = 4096 } },
  -- whole numbers below 1,000: a row's sum is exact in a float, in any order
  buffers = { a = { type = "float", count = function(p) return p.n * p.n end, fill = function(i) return (i * 7919) % 1000 end },
              out = { type = "float", count = function(p) return p.n end, output = true } },
  args = { "a", "out", "n" },
  grid = { function(p) return (p.n + 255) // 256 end },
  block = { 256 },
  reference = function(p, b)
    local a, out, n = b.a, b.out, p.n
    for r = 0, n - 1 do
      local sum = 0
      for c = 0, n - 1 do sum = sum + a[r * n + c] end
      out[r] = sum
    end
  end,
}

step {
  text = {
    en = [[Rows are what a warp reads well, but a kernel with one thread a row makes its warp read 32 rows at once, one element of each: the column walk again, hidden in a loop. row_sums adds up each row of an n × n matrix that way. Run it, then rewrite it with :edit so that a warp reads one row at a time, its 32 lanes taking neighbouring elements, and adds up the 32 lanes' shares with __shfl_down_sync. The launch stays as it is: 256 threads a block, one thread a row, so each warp has its own 32 rows to do one after another.]],
    zh = [[一行一行读是 warp 擅长的，可是一个线程一行的核函数会让 warp 同时读 32 行、每行一个元素：这还是按列遍历，只是藏在了循环里。row_sums 就是这样对 n × n 矩阵的每一行求和。运行它，然后用 :edit 改写它，让一个 warp 一次读一行，32 个通道取相邻的元素，再用 __shfl_down_sync 把 32 个通道各自的部分和加起来。启动方式不变：每个线程块 256 个线程，一个线程一行，所以每个 warp 有自己的 32 行，一行接一行地做。]],
  },
  kernel = ROW_SUMS,
  run = [[r = launch("row_sums"); r]],
  ask = {
    goal = { en = "row_sums, correct, with 4 sectors per request on its loads.",
             zh = "row_sums，结果正确，读取每请求 4 个扇区。" },
    solution = [[r = launch("row_sums")]],
    needs = { kernel = "row_sums", correct = true, load_sectors = 4 },
  },
  hint = {
    { en = "In the given loop, neighbouring lanes differ in r, so their addresses are a whole row apart. Which index should the lane number move instead?",
      zh = "在给出的循环里，相邻通道的 r 不同，所以它们的地址相隔整整一行。应该让通道号去改变哪一个下标？", cause = "load_sectors" },
    { en = "Let lane = threadIdx.x % 32 and the warp's first row be the thread's r minus its lane. For each k from 0 to 31, the lanes read row first + k at columns lane, lane + 32, ..., and each keeps its own partial sum.",
      zh = "令 `lane = threadIdx.x % 32`，warp 的第一行是线程的 r 减去 `lane`。对 k 从 0 到 31，各通道读第 `first + k` 行的 `lane`、`lane + 32`、…… 列，各自保存部分和。", cause = "load_sectors" },
    { en = "The result names the first wrong element. After the loop over columns, sum += __shfl_down_sync(0xffffffff, sum, step) for step = 16, 8, 4, 2, 1 leaves the row's total in lane 0; every lane must take part in every shuffle, so keep the shuffles outside any test of the lane.",
      zh = "结果里写出了第一个错误的元素。列循环之后，对 step = 16、8、4、2、1 做 sum += __shfl_down_sync(0xffffffff, sum, step)，行的总和就在通道 0 里；每个通道都必须参加每一次洗牌操作，所以不要把它放在对通道号的判断里面。", cause = "output" },
    { en = "Run r = launch(\"row_sums\") after your edit: the goal is judged on your last launch.",
      zh = "改完后运行 r = launch(\"row_sums\")：目标按你最近的一次启动来判断。", cause = "kernel" },
  },
  claims = {
    { text = "the given row_sums is correct and touches 32 sectors per load request",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 32
      end },
    { text = "the model: the given row_sums reads the matrix from DRAM once (its sectors stay in L1 and L2 between the loop's steps)",
      holds = function(ctx)
        local r = ctx.result
        return r.model.dram.read_bytes == 4 * r.params.n * r.params.n
      end },
  },
  explain = {
    en = [[A warp on one row reads 32 neighbouring floats a request, 4 sectors, where the given kernel's warp touched 32 sectors for the same 128 bytes. The shuffles add the lanes' shares inside the warp, through registers, with no shared memory and no __syncthreads; keeping row k's sum in lane k lets the warp store its 32 sums in one coalesced request too. The given kernel read the matrix from DRAM only once, since each sector it fetched for one step of its loop stayed cached for the next seven: the cost of the column walk was in L1 and L2, eight times the sectors, as in the column walk at the start of this lab. A warp per row (or a block per row, for long rows) is the usual shape of a reduction along rows.]],
    zh = [[一个 warp 读一行时，每个请求读 32 个相邻的 float，4 个扇区；而给出的核函数里，一个 warp 为同样的 128 字节碰了 32 个扇区。__shfl_down_sync 在 warp 内部通过寄存器把各通道的部分和加起来，不用共享内存，也不用 __syncthreads；让第 k 行的和留在通道 k，warp 还能用一个合并的请求写出它的 32 个和。给出的核函数只从显存读了一遍矩阵，因为它在循环某一步取回的每个扇区都留在缓存里，供接下来的七步使用：按列遍历的代价在 L1 和 L2 上，是八倍的扇区，和本实验开头的按列遍历一样。按行归约的常见写法就是一个 warp 一行（行很长时一个线程块一行）。]],
  },
}
