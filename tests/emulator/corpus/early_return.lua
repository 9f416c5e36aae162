-- early_return: threads leave as soon as their value says so; the others
-- go on (outputs the early ones leave alone keep their -1).
return {
  name = "early_return",
  source = [[
extern "C" __global__ void early_return(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v == 0) return;
    if (v < -15) { out[i] = -v; return; }
    out[i] = 1000 / v + v % 7;
}]],
  params  = { n = 3000 },
  buffers = { ["in"] = { type = "int", count = "n", fill = { "int", -20, 20 } },
              out    = { type = "int", count = "n", output = true, fill = function() return -1 end } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  block   = 128,
  reference = function(p, b)
    local function quotient(a, d) return (a - math.fmod(a, d)) // d end   -- C's, toward zero
    for i = 0, p.n - 1 do
      local v = b["in"][i]
      if v < -15 then b.out[i] = -v
      elseif v ~= 0 then b.out[i] = quotient(1000, v) + math.fmod(v, 7) end
    end
  end,
}
