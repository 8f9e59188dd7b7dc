-- One token bucket per key, stored as the time (µs, Redis clock) at which
-- the bucket is full again: the arithmetic of ratelimit.Memory, atomically.
-- KEYS[1]: the key's name. ARGV[1]: µs to refill one token. ARGV[2]: µs to
-- refill the whole bucket (N tokens).
-- Returns {allowed (0/1), remaining tokens, reset µs, retry-after µs}.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
if full < now then
  full = now
end
local nxt = full + interval
if nxt - now > window then
  return {0, 0, full - now, nxt - window - now}
end
redis.call('SET', KEYS[1], string.format('%d', nxt), 'PX', math.floor((nxt - now) / 1000) + 1)
local retry = nxt + interval - window - now
if retry < 0 then
  retry = 0
end
return {1, math.floor((window - (nxt - now)) / interval), nxt - now, retry}
