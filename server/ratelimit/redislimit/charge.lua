-- Spends n more tokens of a key's bucket after the fact (a request that
-- cost more than its one token), going into a debt of at most one burst
-- beyond an empty bucket: the arithmetic of ratelimit.Memory.Charge,
-- atomically. KEYS[1]: the key's name. ARGV[1]: µs to refill one token.
-- ARGV[2]: µs to refill the whole bucket. ARGV[3]: n.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
if full < now then
  full = now
end
full = math.min(full + n * interval, now + 2 * window)
redis.call('SET', KEYS[1], string.format('%d', full), 'PX', math.floor((full - now) / 1000) + 1)
return 1
