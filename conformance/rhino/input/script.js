function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
print("fib(22) = " + fib(22));
var words = readFile("text.txt").toLowerCase().match(/[a-z]+/g);
var counts = {};
words.forEach(function (w) { counts[w] = (counts[w] || 0) + 1; });
var top = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); }).slice(0, 10);
print(top.map(function (w) { return w + "=" + counts[w]; }).join(", "));
print(JSON.stringify({ a: [1, 2, { b: "c" }], d: new Date(0).toISOString() }));
var m = new java.util.TreeMap();
for (var i = 0; i < 10; i++) m.put("k" + i, i * i);
print(m);
