-- emulate.lua: kernels compiled to PTX (compile.compile) and run on the PTX
-- emulator (core.emulate), with both compilers where both are here. Their
-- requests and sectors must equal the hand-written model's for the same
-- access pattern (copy, copy with float4, strided, offset at odd sizes and
-- partial warps), their outputs the CPU's; a shared-memory reversal through
-- __syncthreads across 8 warps gives the right output and conflict-free
-- wavefronts; a loop whose trip count differs lane by lane makes the
-- requests the hardware's lock-step execution makes (counted here by hand);
-- shuffles, votes, atomics and 64-bit and mixed-width arithmetic give what
-- the same steps give done lane by lane here; an instruction the emulator
-- does not know and an access outside every buffer are one clear error each;
-- so are a store through a null pointer, a trap, and a loop that never ends
-- in a single lane, which the warp-instruction budget stops in seconds.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]

local compilers = t.compilers()

local function ptx_of(source, compiler) return require("warplab.compile").compile(source, {compiler = compiler}).ptx end
local function blocks(n, block) return (n + block - 1) // block end
local function floats(text) local out = {} for i = 1, #text // 4 do out[i] = string.unpack("<f", text, 4 * i - 3) end return out end
local function same_counts(r, m)
  return r.load.requests == m.load.requests and r.load.sectors == m.load.sectors and
         r.store.requests == m.store.requests and r.store.sectors == m.store.sectors
end
local function counts_text(r) return string.format("%d/%d %d/%d", r.load.requests, r.load.sectors, r.store.requests, r.store.sectors) end

local COPY = [[extern "C" __global__ void copy(const float *__restrict__ in, float *__restrict__ out, long long n)
{ long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }]]
local COPY4 = [[extern "C" __global__ void copy4(const float4 *__restrict__ in, float4 *__restrict__ out, long long n)
{ long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }]]
local STRIDED = [[extern "C" __global__ void strided(const float *in, float *out, long long stride, long long n)
{ long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i * stride]; }]]
local OFFSET = [[extern "C" __global__ void offset(const float *a, const float *b, float *r, long long offset, long long n)
{ long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; long long k = i + offset; if (k < n) r[i] = a[k] + b[k]; }]]
local REVERSE = [[extern "C" __global__ void reverse(const float *in, float *out)
{ __shared__ float tile[256]; int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i]; __syncthreads(); out[i] = tile[blockDim.x - 1 - threadIdx.x]; }]]
local LOOP = [[extern "C" __global__ void loop(const int *in, int *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; int s = 0;
  for (int k = 0; k < (i & 7); k++) s += in[(i + k) % n]; out[i] = s > 10 ? s : -s; }]]

for _, compiler in ipairs(compilers) do
  local function emulate(source, kernel, launch) return core.emulate(ptx_of(source, compiler), kernel, launch) end

  for _, case in ipairs({ {1000, 96}, {4096, 256}, {33, 32} }) do
    local n, block = case[1], case[2]
    local r = emulate(COPY, "copy", {grid = {blocks(n, block)}, block = {block},
                                     buffers = {{bytes = 4 * n, fill = "random"}, {bytes = 4 * n}}, args = {{buffer = 1}, {buffer = 2}, n}})
    local m = launch("copy", {n = n, block = block}).model
    t.ok(same_counts(r, m) and r.buffers[1] == r.buffers[2],
         string.format("%s: copy n=%d block=%d: %s as the model's, the output the input", compiler, n, block, counts_text(r)))
  end
  local n4 = 777
  local r4 = emulate(COPY4, "copy4", {grid = {blocks(n4, 128)}, block = {128}, buffers = {{bytes = 16 * n4, fill = "random"}, {bytes = 16 * n4}},
                                      args = {{buffer = 1}, {buffer = 2}, n4}})
  t.ok(same_counts(r4, launch("copy", {n = n4, block = 128, vec = 4}).model) and r4.buffers[1] == r4.buffers[2],
       compiler .. ": copy of float4 n=777: " .. counts_text(r4) .. " as the model's (vec=4)")
  for _, stride in ipairs({1, 3, 8, 33}) do
    local n = 4097
    local r = emulate(STRIDED, "strided", {grid = {blocks(n, 256)}, block = {256}, buffers = {{bytes = 4 * n * stride, fill = "random"}, {bytes = 4 * n}},
                                           args = {{buffer = 1}, {buffer = 2}, stride, n}})
    local input, output, right = floats(r.buffers[1]), floats(r.buffers[2]), true
    for i = 1, n do right = right and output[i] == input[(i - 1) * stride + 1] end
    t.ok(same_counts(r, launch("strided", {n = n, stride = stride}).model) and right,
         string.format("%s: strided stride=%d n=4097: %s as the model's, the output right", compiler, stride, counts_text(r)))
  end
  for _, offset in ipairs({0, 1, 31}) do
    local n = 5000
    local r = emulate(OFFSET, "offset", {grid = {blocks(n, 256)}, block = {256},
                                         buffers = {{bytes = 4 * n, fill = "random"}, {bytes = 4 * n, fill = "random"}, {bytes = 4 * n}},
                                         args = {{buffer = 1}, {buffer = 2}, {buffer = 3}, offset, n}})
    t.ok(same_counts(r, launch("offset", {n = n, offset = offset}).model),
         string.format("%s: offset offset=%d n=5000: %s as the model's", compiler, offset, counts_text(r)))
  end

  local rn = 2048
  local rr = emulate(REVERSE, "reverse", {grid = {rn // 256}, block = {256}, buffers = {{bytes = 4 * rn, fill = "random"}, {bytes = 4 * rn}},
                                          args = {{buffer = 1}, {buffer = 2}}})
  local input, output, right = floats(rr.buffers[1]), floats(rr.buffers[2]), true
  for i = 0, rn - 1 do right = right and output[i + 1] == input[(i // 256) * 256 + 255 - i % 256 + 1] end
  t.ok(right, compiler .. ": __syncthreads across the 8 warps of a block: each warp reads what another wrote")
  t.ok(rr.shared_store.requests == rn // 32 and rr.shared_store.wavefronts == rn // 32 and
       rr.shared_load.requests == rn // 32 and rr.shared_load.wavefronts == rn // 32,
       string.format("%s: ... one conflict-free wavefront per shared access (%d/%d stores, %d/%d loads)", compiler,
                     rr.shared_store.requests, rr.shared_store.wavefronts, rr.shared_load.requests, rr.shared_load.wavefronts))

  -- The loop: in warp w, iteration k runs on the lanes with (i & 7) > k, as one request.
  local ln = 200
  local ints = {}
  for i = 0, ln - 1 do ints[#ints + 1] = string.pack("<i4", (i * 7) % 13) end
  local lr = emulate(LOOP, "loop", {grid = {blocks(ln, 64)}, block = {64}, buffers = {{bytes = 4 * ln, fill = table.concat(ints)}, {bytes = 4 * ln}},
                                    args = {{buffer = 1}, {buffer = 2}, ln}})
  local requests, sectors, right_loop = 0, 0, true
  for w = 0, (ln + 31) // 32 - 1 do
    for k = 0, 6 do
      local touched, any = {}, false
      for lane = 0, 31 do
        local i = w * 32 + lane
        if i < ln and (i & 7) > k then any = true; touched[((i + k) % ln) * 4 // 32] = true end
      end
      if any then requests = requests + 1; for _ in pairs(touched) do sectors = sectors + 1 end end
    end
  end
  for i = 0, ln - 1 do
    local s = 0
    for k = 0, (i & 7) - 1 do s = s + (((i + k) % ln) * 7) % 13 end
    right_loop = right_loop and string.unpack("<i4", lr.buffers[2], 4 * i + 1) == (s > 10 and s or -s)
  end
  t.ok(lr.load.requests == requests and lr.load.sectors == sectors and right_loop,
       string.format("%s: a loop whose trip count differs by lane: %d requests, %d sectors (by hand %d, %d), the output right",
                     compiler, lr.load.requests, lr.load.sectors, requests, sectors))

  -- Shuffles, votes and atomics, against the same steps done here lane by lane.
  local WARP = [[extern "C" __global__ void warp(int *a, unsigned *b, float *f)
{ int v = a[threadIdx.x]; v += __shfl_sync(0xffffffff, v, 3); v += __shfl_down_sync(0xffffffff, v, 1);
  v += __shfl_up_sync(0xffffffff, v, 2); v += __shfl_xor_sync(0xffffffff, v, 4);
  unsigned big = __ballot_sync(0xffffffff, v > 40); int any = __any_sync(0xffffffff, v > 1000);
  atomicAdd(&a[40], v); atomicMax(&a[41], v); atomicAdd(&f[0], 1.5f); atomicCAS(&a[42], 42, v);
  __shared__ int s[32]; s[threadIdx.x] = 0; __syncwarp(); atomicAdd(&s[threadIdx.x % 4], 1); __syncwarp();
  b[threadIdx.x] = big ^ (unsigned)any ^ (unsigned)(s[threadIdx.x % 4] << 8) ^ (unsigned)(atomicExch(&a[43], 7) << 16); }]]
  local ints = {}
  for i = 0, 47 do ints[#ints + 1] = string.pack("<i4", i) end
  local wr = emulate(WARP, "warp", {grid = {1}, block = {32}, buffers = {{bytes = 192, fill = table.concat(ints)}, {bytes = 128}, {bytes = 4}},
                                   args = {{buffer = 1}, {buffer = 2}, {buffer = 3}}})
  local v = {}
  for i = 0, 31 do v[i] = i end
  local function shuffle(pick) local before = {} for i = 0, 31 do before[i] = v[i] end for i = 0, 31 do v[i] = v[i] + before[pick(i)] end end
  shuffle(function() return 3 end)
  shuffle(function(i) return i + 1 <= 31 and i + 1 or i end)
  shuffle(function(i) return i - 2 >= 0 and i - 2 or i end)
  shuffle(function(i) return i ~ 4 end)
  local big, sum, most = 0, 0, 41
  for i = 0, 31 do
    if v[i] > 40 then big = big | (1 << i) end
    sum, most = sum + v[i], math.max(most, v[i])
  end
  local expected_b, right_warp = {}, true
  for i = 0, 31 do expected_b[i] = big ~ 0 ~ (8 << 8) ~ ((i == 0 and 43 or 7) << 16) end
  for i = 0, 31 do right_warp = right_warp and string.unpack("<I4", wr.buffers[2], 4 * i + 1) == expected_b[i] end
  local word = function(k) return (string.unpack("<i4", wr.buffers[1], 4 * k + 1)) end
  t.ok(right_warp and word(40) == 40 + sum and word(41) == most and word(42) == v[0] and word(43) == 7 and
       string.unpack("<f", wr.buffers[3], 1) == 48.0,
       compiler .. ": shuffles (idx, down, up, xor), ballot and any, and atomics (add, max, float add, cas, exch, shared) as done lane by lane")

  -- 64-bit and mixed-width arithmetic and conversions, against the same in Lua.
  local ARITH = [[extern "C" __global__ void arith(const long long *x, const float *f, long long *out)
{ int i = threadIdx.x; long long a = x[i]; unsigned long long u = (unsigned long long)a;
  out[6 * i + 0] = a * 3 - (a >> 2);
  out[6 * i + 1] = (long long)((u >> 7) ^ (u << 13));
  out[6 * i + 2] = (long long)(int)a * -7;
  out[6 * i + 3] = (long long)((unsigned)a / 3u) + (long long)((unsigned char)a);
  out[6 * i + 4] = (long long)f[i] + (long long)(int)(f[i] * 3.0f);
  out[6 * i + 5] = (long long)(float)(int)a; }]]
  local xs, fs = {}, {}
  local values, reals = {}, {}
  for i = 0, 31 do
    values[i] = (i * 0x9E3779B97F4A7C15) ~ (i << 40)   -- wraps, as C's 64-bit integers do
    reals[i] = (i - 16) * 0.75 + 0.1
    xs[#xs + 1] = string.pack("<i8", values[i])
    fs[#fs + 1] = string.pack("<f", reals[i])
  end
  local ar = emulate(ARITH, "arith", {grid = {1}, block = {32}, buffers = {{bytes = 256, fill = table.concat(xs)}, {bytes = 128, fill = table.concat(fs)}, {bytes = 32 * 48}},
                                      args = {{buffer = 1}, {buffer = 2}, {buffer = 3}}})
  local function int32(x) x = x & 0xffffffff return x >= 0x80000000 and x - 0x100000000 or x end
  local function trunc(x) return x >= 0 and math.floor(x) or -math.floor(-x) end
  local float_of = function(x) return (string.unpack("<f", string.pack("<f", x))) end
  local right_arith, first_wrong = true, nil
  for i = 0, 31 do
    local a = values[i]
    local f = float_of(reals[i])
    local expected = {
      a * 3 - (a >> 2 | (a < 0 and ~(-1 >> 2) or 0)),
      ((a >> 7) ~ (a << 13)),
      int32(a) * -7,
      (a & 0xffffffff) // 3 + (a & 0xff),
      trunc(f) + trunc(float_of(f * 3.0)),
      math.tointeger(float_of(int32(a))) or trunc(float_of(int32(a))),
    }
    for k = 1, 6 do
      local got = string.unpack("<i8", ar.buffers[3], 8 * (6 * i + k - 1) + 1)
      if got ~= expected[k] and right_arith then right_arith, first_wrong = false, string.format("lane %d, value %d: got %d, expected %d", i, k, got, expected[k]) end
    end
  end
  t.ok(right_arith, compiler .. ": 64-bit and mixed-width integer arithmetic, truncations and float conversions as in C" ..
       (first_wrong and " (" .. first_wrong .. ")" or ""))

  -- Rounding of conversions (NVRTC's intrinsics: clang's stand-ins have none of them).
  if compiler == "nvrtc" then
    local ROUNDING = [[extern "C" __global__ void rounding(const float *f, int *out)
{ int i = threadIdx.x; float v = f[i];
  out[6 * i + 0] = __float2int_rn(v); out[6 * i + 1] = __float2int_rz(v); out[6 * i + 2] = __float2int_rd(v);
  out[6 * i + 3] = __float2int_ru(v); out[6 * i + 4] = __float_as_int(__int2float_rn(16777217 + i));
  out[6 * i + 5] = (int)__double2float_rn(1.0 / (double)(i + 3)) == 0 ? __float_as_int(__double2float_rn(1.0 / (double)(i + 3))) : -1; }]]
    local values = { 2.5, -2.5, 3.5, -0.5, 0.5, 1.4999999, -1.5, 7.0, -7.25, 1e9, -3.75, 0.0 }
    local packed = {}
    for i = 1, 32 do packed[i] = string.pack("<f", values[(i - 1) % #values + 1]) end
    local rr = emulate(ROUNDING, "rounding", {grid = {1}, block = {32}, buffers = {{bytes = 128, fill = table.concat(packed)}, {bytes = 32 * 24}},
                                              args = {{buffer = 1}, {buffer = 2}}})
    local function even(x) local f = math.floor(x) local d = x - f if d > 0.5 or (d == 0.5 and f % 2 == 1) then f = f + 1 end return f end
    local function bits(x) return (string.unpack("<i4", string.pack("<f", x))) end
    local right, first_wrong = true, nil
    for i = 0, 31 do
      local v = string.unpack("<f", packed[i + 1])
      local expected = { even(v), v >= 0 and math.floor(v) or -math.floor(-v), math.floor(v), math.ceil(v), bits(16777217 + i),
                         bits(1.0 / (i + 3)) }
      for k = 1, 6 do
        local got = string.unpack("<i4", rr.buffers[2], 4 * (6 * i + k - 1) + 1)
        if got ~= math.tointeger(expected[k]) and right then
          right, first_wrong = false, string.format("lane %d (%g), value %d: got %d, expected %s", i, v, k, got, tostring(expected[k]))
        end
      end
    end
    t.ok(right, "nvrtc: conversions round to nearest even, toward zero, down and up; int and double to float to nearest" ..
         (first_wrong and " (" .. first_wrong .. ")" or ""))
  end

  -- Index arithmetic, which the emulator keeps as base + lane * step: values
  -- that wrap 2^32 or cross the sign within a warp (c: in warp 0 without
  -- wrapping, so that its widening to 64 bits must see it), shifts past the width,
  -- divergent updates (a loop of 0 to 3 trips), a negative step and a uniform address; with blocks
  -- whole warps wide (the thread index a step per lane) and not (48 threads).
  local INDEX = [[extern "C" __global__ void lanes(unsigned *out32, long long *out64, const float *in, float *gathered, int n)
{ unsigned t = threadIdx.x, b = blockIdx.x; int base = blockIdx.x * blockDim.x + threadIdx.x;
  int s = (int)(t * 0x08000000u - 0x40000000u), c = (int)(t * 0x04000000u + 0x40000000u); unsigned w = t * 0x10000000u + b * 0x90000000u;
  unsigned k = t >> (b & 7);
  out32[4 * base + 0] = w; out32[4 * base + 1] = (t << 28) | b; out32[4 * base + 2] = (unsigned)s / 3u; out32[4 * base + 3] = k * 7u - 11u;
  out64[2 * base + 0] = (long long)c * 5 + (long long)w; out64[2 * base + 1] = (long long)(n - 1 - base) * -3;
  unsigned m = t * 3 + b;
  for (unsigned j = 0; j < (t & 3); j++) m += j * 5 + b;
  if (t % 3 == 0) k = k + 100;
  gathered[base] = in[n - 1 - base] + in[b] + (float)k + (float)m; }]]
  local float_of = function(x) return (string.unpack("<f", string.pack("<f", x))) end
  local function int32(x) x = x & 0xffffffff return x >= 0x80000000 and x - 0x100000000 or x end
  for _, block in ipairs({96, 48}) do
    local grid, inputs = 3, {}
    local n = grid * block
    for i = 0, n - 1 do inputs[i + 1] = string.pack("<f", (i % 17) * 0.25 - 1) end
    local r = emulate(INDEX, "lanes", {grid = {grid}, block = {block},
                                       buffers = {{bytes = 16 * n}, {bytes = 16 * n}, {bytes = 4 * n, fill = table.concat(inputs)}, {bytes = 4 * n}},
                                       args = {{buffer = 1}, {buffer = 2}, {buffer = 3}, {buffer = 4}, n}})
    local right, first_wrong = true, nil
    local function check(what, got, want)
      if got ~= want and right then right, first_wrong = false, string.format("%s: got %s, expected %s", what, tostring(got), tostring(want)) end
    end
    for b = 0, grid - 1 do
      for t = 0, block - 1 do
        local base = b * block + t
        local s, c = int32(t * 0x08000000 - 0x40000000), int32(t * 0x04000000 + 0x40000000)
        local w = (t * 0x10000000 + b * 0x90000000) & 0xffffffff
        local k = t >> (b & 7)
        local want32 = { w, ((t << 28) | b) & 0xffffffff, (s & 0xffffffff) // 3, (k * 7 - 11) & 0xffffffff }
        for j = 1, 4 do check(string.format("thread %d, out32[%d]", base, j - 1), string.unpack("<I4", r.buffers[1], 4 * (4 * base + j - 1) + 1), want32[j]) end
        check(string.format("thread %d, out64[0]", base), string.unpack("<i8", r.buffers[2], 16 * base + 1), c * 5 + w)
        check(string.format("thread %d, out64[1]", base), string.unpack("<i8", r.buffers[2], 16 * base + 9), (n - 1 - base) * -3)
        local m = t * 3 + b
        for j = 0, (t & 3) - 1 do m = m + j * 5 + b end
        if t % 3 == 0 then k = k + 100 end
        local a, c = string.unpack("<f", inputs[n - base]), string.unpack("<f", inputs[b + 1])
        check(string.format("thread %d, gathered", base), string.unpack("<f", r.buffers[4], 4 * base + 1), float_of(float_of(float_of(a + c) + k) + m))
      end
    end
    local warps = grid * ((block + 31) // 32)
    t.ok(right and r.load.requests == 2 * warps and r.store.requests == 7 * warps,
         string.format("%s: index arithmetic lane by lane in blocks of %d (wraps, signs, shifts, divergent updates, steps of -4 and 0): %d/%d requests%s",
                       compiler, block, r.load.requests, r.store.requests, first_wrong and " (" .. first_wrong .. ")" or ""))
  end

  -- Local memory: an array indexed by data (ld.local and st.local), and one
  -- reached through a generic pointer that is local in odd blocks and global
  -- in even ones (cvta.local); each thread's own, and not counted as global traffic.
  local LOCAL = [[extern "C" __global__ void local_array(const int *in, int *out, int *scratch, int n)
{ int t[16], u[16]; int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; k++) t[k] = in[(i + k) % n] * (k + 1);
  int s = 0; for (int k = 0; k < 16; k++) s += t[(in[i] + k * 7) & 15];
  int *p = (blockIdx.x & 1) ? u : scratch + 16 * i;
  for (int k = 0; k < 16; k++) p[(k * 5 + in[i]) & 15] = k + s;
  int q = 0; for (int k = 0; k < 16; k++) q = q * 3 + p[k];
  out[i] = s + q; }]]
  local n_local, ins = 96, {}
  for i = 0, n_local - 1 do ins[i] = (i * 37 + 11) % 101 end
  local packed_ins = {}
  for i = 0, n_local - 1 do packed_ins[i + 1] = string.pack("<i4", ins[i]) end
  local lr = emulate(LOCAL, "local_array", {grid = {3}, block = {32}, buffers = {{bytes = 4 * n_local, fill = table.concat(packed_ins)},
                                            {bytes = 4 * n_local}, {bytes = 64 * n_local}}, args = {{buffer = 1}, {buffer = 2}, {buffer = 3}, n_local}})
  local right_local, wrong = true, nil
  for i = 0, n_local - 1 do
    local tt, s = {}, 0
    for k = 0, 15 do tt[k] = ins[(i + k) % n_local] * (k + 1) end
    for k = 0, 15 do s = s + tt[(ins[i] + k * 7) & 15] end
    local u = {}
    for k = 0, 15 do u[(k * 5 + ins[i]) & 15] = k + s end
    local q = 0
    for k = 0, 15 do q = (q * 3 + u[k]) & 0xffffffff end
    local want = int32(s + q)
    local got = string.unpack("<i4", lr.buffers[2], 4 * i + 1)
    if got ~= want and right_local then right_local, wrong = false, string.format("thread %d: got %d, expected %d", i, got, want) end
  end
  t.ok(right_local, compiler .. ": local arrays, through ld.local/st.local and through a generic pointer, each thread's own" ..
       (wrong and " (" .. wrong .. ")" or ""))

  -- Rounding of floats to integral floats, saturation (.sat), shifts by an
  -- amount past a narrow type's width, and a generic pointer whose lanes are
  -- in shared memory (odd ones) and in global memory (even ones).
  local EDGES = [[extern "C" __global__ void edges(const float *f, const int *x, float *fout, int *iout, const float *g)
{ __shared__ float s[32]; int i = threadIdx.x; float v = f[i]; int a = x[i];
  fout[6 * i + 0] = floorf(v); fout[6 * i + 1] = truncf(v); fout[6 * i + 2] = ceilf(v); fout[6 * i + 3] = rintf(v);
  fout[6 * i + 4] = __saturatef(v);
  s[i] = 100.0f + i; __syncthreads();
  const float *p = (i & 1) ? &s[i] : &g[i]; fout[6 * i + 5] = *p;
  int sum, narrow; short l, r;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(sum) : "r"(a), "r"(0x7fffff00));
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(narrow) : "r"(a));
  asm("shl.b16 %0, %1, %2;" : "=h"(l) : "h"((short)a), "r"(65536 + (i & 3)));
  asm("shr.s16 %0, %1, %2;" : "=h"(r) : "h"((short)a), "r"(i & 1 ? 65537 : 3));
  iout[4 * i + 0] = sum; iout[4 * i + 1] = narrow; iout[4 * i + 2] = l; iout[4 * i + 3] = r; }]]
  local reals, ints, globals = {}, {}, {}
  for i = 0, 31 do
    reals[i] = ({ 2.5, -2.5, 3.5, -0.5, 0.5, 1.4999999, -1.5, 7.0, -7.25, 0.75, -3.75, 1.25 })[i % 12 + 1]
    ints[i] = ({ 5, -16, 300, 0x7fffffff, -0x7fffffff, 255, -1, 1000 })[i % 8 + 1]
    globals[i] = 2.0 * i
  end
  local function packed(list, format) local out = {} for i = 0, 31 do out[i + 1] = string.pack(format, list[i]) end return table.concat(out) end
  local er = emulate(EDGES, "edges", {grid = {1}, block = {32}, buffers = {{bytes = 128, fill = packed(reals, "<f")}, {bytes = 128, fill = packed(ints, "<i4")},
                                       {bytes = 32 * 24}, {bytes = 32 * 16}, {bytes = 128, fill = packed(globals, "<f")}},
                                       args = {{buffer = 1}, {buffer = 2}, {buffer = 3}, {buffer = 4}, {buffer = 5}}})
  local function even(x) local f = math.floor(x) local d = x - f if d > 0.5 or (d == 0.5 and f % 2 == 1) then f = f + 1 end return f end
  local function int16(x) x = x & 0xffff return x >= 0x8000 and x - 0x10000 or x end
  local right_edges, first_edge = true, nil
  for i = 0, 31 do
    local v, a = string.unpack("<f", string.pack("<f", reals[i])), ints[i]
    local wide = a + 0x7fffff00
    local floats = { math.floor(v), v >= 0 and math.floor(v) or -math.floor(-v), math.ceil(v), even(v), math.max(0, math.min(1, v)),
                     i & 1 == 1 and 100.0 + i or globals[i] }
    local integers = { math.max(-0x80000000, math.min(0x7fffffff, wide)), math.max(0, math.min(255, a)), 0,
                       int16(a) >> (i & 1 == 1 and 15 or 3) | (int16(a) < 0 and (i & 1 == 1 and -1 or ~(-1 >> 3)) or 0) }
    for k = 1, 6 do
      local got = string.unpack("<f", er.buffers[3], 4 * (6 * i + k - 1) + 1)
      if got ~= floats[k] and right_edges then right_edges, first_edge = false, string.format("lane %d, float %d: got %s, expected %s", i, k, got, floats[k]) end
    end
    for k = 1, 4 do
      local got = string.unpack("<i4", er.buffers[4], 4 * (4 * i + k - 1) + 1)
      if got ~= integers[k] and right_edges then right_edges, first_edge = false, string.format("lane %d, integer %d: got %d, expected %d", i, k, got, integers[k]) end
    end
  end
  t.ok(right_edges and er.shared_load.requests == 1 and er.load.requests >= 3,
       compiler .. ": floor, trunc, ceil and rint of floats, .sat, shifts past a short's width, and one generic load from shared and global lanes" ..
       (first_edge and " (" .. first_edge .. ")" or ""))

  local ok, message = pcall(emulate, [[extern "C" __global__ void s(unsigned *a)
{ unsigned v = a[threadIdx.x]; asm volatile("brev.b32 %0, %1;" : "=r"(v) : "r"(v)); a[threadIdx.x] = v; }]],
                            "s", {grid = {1}, block = {32}, buffers = {{bytes = 128}}, args = {{buffer = 1}}})
  t.ok(not ok and message:find("PTX line %d+: instruction 'brev' is not emulated yet") ~= nil,
       compiler .. ": an instruction the emulator does not know is one clear error (" .. tostring(message) .. ")")
  ok, message = pcall(emulate, COPY, "copy", {grid = {1}, block = {64}, buffers = {{bytes = 128}, {bytes = 256}}, args = {{buffer = 1}, {buffer = 2}, 64}})
  t.ok(not ok and message:find("kernel 'copy' loaded from global address 0x%x+, which is in no buffer; lane 0 of warp 1 of block %(0, 0, 0%)") ~= nil,
       compiler .. ": a read outside every buffer is one clear error naming the lane (" .. tostring(message) .. ")")
end

-- Reconvergence where the layout does not follow the flow: the join, a
-- barrier in it, comes before both paths in the PTX (as clang lays out a
-- loop's latch above its header). Lanes run in the control-flow order, not
-- the PTX's, so both halves of the warp meet at the barrier before either
-- reads what the other wrote.
local JOIN_FIRST = [[
.version 7.0
.target sm_75
.address_size 64
.visible .entry join_first(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  mov.u32 %r4, s;
  shl.b32 %r5, %r1, 2;
  add.s32 %r6, %r4, %r5;
  @%p1 bra EVEN;
  bra.uni ODD;
JOIN:
  bar.sync 0;
  add.s32 %r7, %r1, 1;
  and.b32 %r7, %r7, 31;
  shl.b32 %r7, %r7, 2;
  add.s32 %r7, %r4, %r7;
  ld.shared.u32 %r8, [%r7];
  add.s32 %r8, %r8, %r3;
  cvt.u64.u32 %rd2, %r5;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
EVEN:
  mov.u32 %r3, 1000;
  mul.lo.u32 %r9, %r1, 10;
  st.shared.u32 [%r6], %r9;
  bra.uni JOIN;
ODD:
  mov.u32 %r3, 2000;
  mul.lo.u32 %r9, %r1, 20;
  st.shared.u32 [%r6], %r9;
  bra.uni JOIN;
}
]]
local joined = core.emulate(JOIN_FIRST, "join_first", {grid = {1}, block = {32}, buffers = {{bytes = 128}}, args = {{buffer = 1}}})
local right_join, wrong_lane = true, nil
for lane = 0, 31 do
  local neighbour = (lane + 1) % 32
  local want = neighbour * (neighbour % 2 == 0 and 10 or 20) + (lane % 2 == 0 and 1000 or 2000)
  local got = string.unpack("<I4", joined.buffers[1], 4 * lane + 1)
  if got ~= want and right_join then right_join, wrong_lane = false, string.format("lane %d: got %d, expected %d", lane, got, want) end
end
t.ok(right_join and joined.shared_store.requests == 2 and joined.shared_load.requests == 1,
     string.format("a join laid out above its paths reconverges there, barrier and all (shared %d stores, %d loads)%s",
                   joined.shared_store.requests, joined.shared_load.requests, wrong_lane and " (" .. wrong_lane .. ")" or ""))

-- A device function's body beside the kernel (NVRTC leaves libdevice's
-- __nv_popc there after inlining it) is passed over, and the kernel's own
-- lines keep their numbers.
local WITH_FUNCTION = [[
.version 8.0
.target sm_90
.address_size 64
.visible .entry count_bits(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  popc.b32 %r2, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r2;
  ret;
}
.func  (.param .b32 func_retval0) __nv_popc(
  .param .b32 __nv_popc_param_0
)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [__nv_popc_param_0];
  popc.b32 %r2, %r1;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
]]
local counted = core.emulate(WITH_FUNCTION, "count_bits", {grid = {1}, block = {32}, buffers = {{bytes = 128}}, args = {{buffer = 1}}})
t.is(string.unpack("<I4", counted.buffers[1], 4 * 7 + 1), 3, "a device function's body beside the kernel is passed over (lane 7: 3 bits)")

-- An instruction the emulator does not know names its own PTX line, after
-- directives that end at their line's end (they once made it lines early).
local ok_line, line_message = pcall(core.emulate, ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry bad(.param .u64 out)\n{\n  brev.b32 %r1, %r2;\n}\n",
                                    "bad", {grid = {1}, block = {32}, buffers = {}, args = {0}})
t.ok(not ok_line and tostring(line_message):find("PTX line 6: instruction 'brev' is not emulated yet", 1, true) ~= nil,
     "an unknown instruction names its own PTX line (" .. tostring(line_message) .. ")")

-- Faults a kernel makes, in PTX as compilers write them: each one line
-- saying what the kernel did, where (PTX line) and in which lane.
local function ptx_kernel(name, body)
  return ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry " .. name .. "(.param .u64 out)\n{\n" ..
         "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  mov.u32 %r1, %tid.x;\n" .. body .. "\n  ret;\n}\n"
end
local function fault_of(name, body)
  local ok, message = pcall(core.emulate, ptx_kernel(name, body), name,
                            {grid = {1}, block = {32}, buffers = {{bytes = 128}}, args = {{buffer = 1}}})
  return ok and "(no error)" or tostring(message)
end
local null_store = fault_of("nullstore", "  mul.wide.u32 %rd1, %r1, 4;\n  st.global.u32 [%rd1], %r1;")
t.ok(null_store:find("PTX line 11, st: kernel 'nullstore' stored to global address 0x0, which is in no buffer (a null pointer?); " ..
                     "lane 0 of warp 0 of block (0, 0, 0)", 1, true) ~= nil,
     "a store through a null pointer names the kernel, the address and the likely cause (" .. null_store .. ")")
local trapped = fault_of("trapper", "  setp.eq.u32 %p1, %r1, 3;\n  @%p1 trap;")
t.ok(trapped:find("PTX line 11, trap: kernel 'trapper' stopped at a trap", 1, true) ~= nil and trapped:find("lane 3 of warp 0", 1, true) ~= nil,
     "a trap (what a compiler makes of a store it proves faults) ends the kernel with one line naming the lane (" .. trapped .. ")")
-- One lane spins while the other 31 wait at the exit: the budget counts the
-- warp's instructions, not its lanes', so it ends as soon as a whole warp
-- spinning would: 2^25 warp-instructions and 2^14 for its one warp
-- (before: 2^34 lane-instructions, over 400 s here).
local started = os.time()
local spun = fault_of("spin", "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\nLOOP:\n  add.s32 %r2, %r2, 1;\n  bra.uni LOOP;\nDONE:")
t.ok(spun:find("kernel 'spin' ran over 33,570,816 warp-instructions (a loop that never ends?)", 1, true) ~= nil and
     os.time() - started < 120,
     "a single spinning lane stops at the warp-instruction budget, the budget written with commas, in " ..
     (os.time() - started) .. " s (" .. spun .. ")")
-- Every lane of a large grid spins: the first block past twice a small
-- launch's budget and 64 times its warps' part stops the launch (2^26 +
-- 2^14 * 8 * 64 for a block of 8 warps), not the whole grid's budget (2^25
-- + 2^14 for each of 8,192 warps: over 20 s on two cores, before).
local ok, everyone = pcall(core.emulate, ptx_kernel("spinall", "LOOP:\n  add.s32 %r2, %r2, 1;\n  bra.uni LOOP;"), "spinall",
                           {grid = {1024}, block = {256}, buffers = {{bytes = 128}}, args = {{buffer = 1}}})
t.ok(not ok and tostring(everyone):find("of kernel 'spinall' ran over 75,497,472 warp-instructions, far more than a block's part of " ..
                                        "the launch's (a loop that never ends?)", 1, true) ~= nil,
     "a grid of spinning blocks stops at the first block's budget, the block named: " .. tostring(everyone))

-- The parser's messages in Chinese too (issue 31, item 8): an instruction
-- the emulator does not run, named with its PTX line, in each language.
local function declared_with(lang)
  core.lang(lang)
  local ok, why = pcall(kernel, { name = "brk_" .. lang, source = ([[extern "C" __global__ void brk_%s(float *a)
{ asm volatile("brkpt;"); a[threadIdx.x] = 1.0f; }]]):format(lang), buffers = { a = { type = "float", count = 32, output = true } },
                                 args = { "a" }, grid = 1, block = 32 })
  core.lang("en")
  return ok and "" or tostring(why)
end
t.ok(declared_with("en"):find("PTX line %d+: instruction 'brkpt' is not emulated yet") ~= nil, "an instruction not emulated, in English")
t.ok(declared_with("zh"):find("PTX 第 %d+ 行：指令 'brkpt' 还没有模拟") ~= nil, "... and in Chinese")
t.done()
