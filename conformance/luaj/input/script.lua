local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib(22) = " .. fib(22))
local f = io.open("text.txt", "r")
local counts = {}
for w in f:read("*a"):lower():gmatch("%a+") do counts[w] = (counts[w] or 0) + 1 end
f:close()
local words = {}
for w in pairs(counts) do words[#words + 1] = w end
table.sort(words, function(a, b) if counts[a] ~= counts[b] then return counts[a] > counts[b] end return a < b end)
for i = 1, 10 do io.write(words[i], "=", counts[words[i]], " ") end
print()
local co = coroutine.wrap(function() for i = 1, 5 do coroutine.yield(i * i) end end)
for i = 1, 5 do io.write(co(), " ") end
co() -- runs the coroutine to its end: LuaJ runs it on a thread that would otherwise wait forever
print()
print(string.format("%5.2f %s %d", math.pi, tostring(nil), #words))
