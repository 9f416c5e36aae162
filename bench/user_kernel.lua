-- user_kernel.lua: kernels declared in Lua (issue 18), on the machine at hand:
--   ./warplab bench/user_kernel.lua        (on a GPU; --sim for the model)
-- 1. Time from kernel{...} to the first result at the prompt (kernel{} and
--    a default launch: compile, and on a GPU load and measure), with a cold
--    compile cache (a source never compiled before: a nonce in a comment)
--    and a warm one (the same source again, under another name).
-- 2. On a GPU: the strided family's kernel at load = "default", declared in
--    Lua with its text (hinted_load<LOAD_DEFAULT> is the plain load it
--    stands for), against the built-in: hardware counters and median times,
--    launches taken in turn, 5 rounds. The target: the same counters, and
--    a median time within 2% of the built-in's.
local core = debug.getregistry()["warplab.core"]
local gpu = device().backend == "gpu"

local STRIDED = [[
__global__ void strided(const float *in, float *out, long long stride, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}
]]

local function declaration(name, source)
  return {
    name = name, entry = "strided", source = source,
    params  = { n = { default = 1 << 24, min = 1, max = 1 << 28 }, stride = { default = 4, min = 1, max = 1024 } },
    buffers = { ["in"] = { type = "float", count = function(p) return p.n * p.stride end },
                out    = { type = "float", count = "n", output = true } },
    args    = { "in", "out", "stride", "n" },
    grid    = function(p) return (p.n + 255) // 256 end,
    block   = 256,
  }
end

local function median(values) table.sort(values) return values[(#values + 1) // 2] end

print(string.format("device: %s (%s) · %s · %s", device().name, device().backend, core.nvrtc_version() or "clang", os.date("!%Y-%m-%d")))
local nonce = string.format("// %d %d\n", os.time(), math.random(1 << 30))
local small = { n = 1 << 20 }
for _, case in ipairs({ { "cold", "first_cold" }, { "warm", "first_warm" } }) do
  local started = core.now_ms()
  kernel(declaration(case[2], nonce .. STRIDED))
  local r = launch(case[2], small)
  print(string.format("%-40s %10.1f ms (the launch itself: %.1f ms)", "kernel{} to first result, " .. case[1] .. " cache",
                      core.now_ms() - started, r.wall_ms))
end
if not gpu then return end

kernel(declaration("strided_lua", STRIDED))
print(string.format("%-12s %14s %14s %8s  %s", "stride", "built-in ms", "kernel{} ms", "ratio", "counters (requests/sectors, load and store)"))
for _, stride in ipairs({ 1, 4, 32 }) do
  local params = { n = 1 << 24, stride = stride }
  local built_in, declared, a, b = {}, {}, nil, nil
  for round = 1, 5 do
    a = launch("strided", params)
    b = launch("strided_lua", params)
    built_in[round], declared[round] = a.time_ms, b.time_ms
  end
  local function counts(r)
    local c = r.counters
    return string.format("%d/%d %d/%d", c.load_requests.value, c.load_sectors.value, c.store_requests.value, c.store_sectors.value)
  end
  local x, y = median(built_in), median(declared)
  print(string.format("%-12d %14.4f %14.4f %8.4f  built-in %s, kernel{} %s%s", stride, x, y, y / x, counts(a), counts(b),
                      counts(a) == counts(b) and "" or "  (differ)"))
end
