-- random_params.lua: parameters for a random launch of a family, for the
-- tests and benchmarks that draw launches (tests/emulator/gpu.lua,
-- bench/model_time.lua): each choice at random, the block a multiple of 32,
-- and every other integer within the family's range, capped by caps[name]
-- ({low, high}; without a cap, at most 2^16). With options.spread, a size
-- whose capped range spans over 64 times is drawn evenly over its powers of
-- two. matmul's n, a matrix side, is drawn from options.matmul_n. It draws
-- with math.random: seed that first. A draw need not be a valid launch:
-- check it with can().
return function(name, caps, options)
  local params = {}
  for _, p in ipairs(info(name).params) do
    local cap = caps[p.name]
    if p.choices then
      params[p.name] = p.choices[math.random(#p.choices)]
    elseif p.name == "block" and type(p.default) == "number" then
      params.block = 32 * math.random(math.max(1, p.min // 32), p.max // 32)
    elseif type(p.default) == "number" and p.min then
      local low, high = cap and math.max(p.min, cap[1]) or p.min, cap and math.min(p.max, cap[2]) or math.min(p.max, 1 << 16)
      if low > high then
        params[p.name] = p.default
      elseif options.spread and cap and high / low > 64 then
        params[p.name] = math.floor(2 ^ (math.log(low, 2) + math.random() * (math.log(high, 2) - math.log(low, 2))))
      else
        params[p.name] = math.random(low, high)
      end
    end
  end
  if name == "matmul" then params.n = math.random(options.matmul_n[1], options.matmul_n[2]) end
  return params
end
