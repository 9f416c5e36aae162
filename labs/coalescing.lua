-- coalescing: stride, element width, broadcast and random gathers — how a
-- warp's addresses turn into sectors, and what share of them is used.

lab {
  title = { en = "Coalescing: stride, width, broadcast", zh = "合并访问：步长、元素宽度、广播" },
  topics = { "coalescing", "stride", "element width", "useful bytes", "broadcast" },
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
    en = [[Sweep the stride from 1 to 64 floats. The number of sectors grows with the stride until every lane has a sector of its own; after that the requests cannot get worse, but the bytes used per byte fetched keep falling until every lane's 4 bytes come with a 32-byte sector.]],
    zh = [[把步长从 1 扫到 64 个 float。扇区数随步长增长，直到每个线程独占一个扇区；之后请求不会更糟，但有用字节占取回字节的比例继续下降，直到每个线程的 4 个字节都要带上一个 32 字节的扇区。]],
  },
  run = [[s = sweep("strided", {stride = pow2(0, 6), n = 1 << 20})]],
  ask = {
    question = { en = "At stride 64, what percentage of the fetched bytes do the loads use?",
                 zh = "步长为 64 时，读操作用到了取回字节的百分之多少？" },
    answer = function(ctx)
      local r = find(ctx.results, {stride = 64})
      return r and 100 * r.load.useful_fraction
    end,
    tolerance = 0.5, unit = "%",
  },
  claims = {
    { text = "from stride 8 on, every lane needs a sector of its own (32 sectors per request)",
      holds = function(ctx)
        for _, r in ipairs(ctx.results or {}) do
          if r.params.stride >= 8 and r.load.sectors_per_request ~= 32.0 then return false end
        end
        return true
      end },
    { text = "at stride 16 and beyond, DRAM reads 64 bytes per useful float (scattered sectors come in 64-byte units)",
      gpu = true,
      holds = function(ctx)
        local r = find(ctx.results, {stride = 16})
        local per_float = r and r.dram.read_bytes / r.params.n
        return per_float ~= nil and per_float > 56 and per_float < 72
      end },
  },
  hint = { { en = "4 useful bytes in each 32-byte sector.", zh = "每个 32 字节扇区里有 4 个有用字节。" } },
  explain = {
    en = [[12.5%: each lane uses 4 bytes of its own 32-byte sector. On a GPU the DRAM side is worse still: scattered sectors are read in 64-byte units, so each useful float costs 64 bytes of DRAM traffic (look at the DRAM line of a stride-16 launch).]],
    zh = [[12.5%：每个线程只用自己 32 字节扇区里的 4 个字节。在 GPU 上 DRAM 一侧更糟：分散的扇区以 64 字节为单位读取，所以每个有用的 float 要花 64 字节的 DRAM 流量（看步长 16 的 DRAM 行）。]],
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
  hint = { { en = "32 lanes × 8 bytes.", zh = "32 个线程 × 8 字节。" } },
  explain = {
    en = [[8 sectors, all of them used: 256 useful bytes per request. Twice the sectors of float, and twice the data — the chapter's exercise on double. Sectors per request alone does not say good or bad; the useful share does.]],
    zh = [[8 个扇区，全部用到：每个请求 256 个有用字节。是 float 的两倍扇区，也是两倍数据——这就是本章关于 double 的练习。单看每请求扇区数不能判断好坏，要看有用字节的比例。]],
  },
}

step {
  text = {
    en = [[A broadcast is the opposite of a scatter: all 32 lanes read the same address. From global memory that is one sector for the whole warp. From constant memory it is one pass of the constant cache; distinct addresses there are served one after another.]],
    zh = [[广播与分散正好相反：32 个线程读同一个地址。从全局内存读，整个 warp 只要一个扇区。从常量内存读，只要常量缓存的一次传送；常量内存里的不同地址则要一个接一个地服务。]],
  },
  run = [[same = launch("broadcast", {space = "constant", pattern = "same"}); distinct = launch("broadcast", {space = "constant", pattern = "distinct"}); distinct]],
  ask = {
    question = { en = "With distinct addresses, how many constant-cache passes does one warp request take?",
                 zh = "地址各不相同时，一个 warp 请求要常量缓存传送几次？" },
    answer = function(ctx) return ctx.result.constant.passes / ctx.result.constant.requests end,
    tolerance = 0.01,
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
