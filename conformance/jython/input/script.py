import collections, json, re, itertools

def primes(n):
    sieve = [True] * n
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            for j in range(i * i, n, i):
                sieve[j] = False
    return [i for i in range(2, n) if sieve[i]]

p = primes(20000)
print("primes: %d, last %d" % (len(p), p[-1]))
words = re.findall(r"[a-z]+", open("text.txt").read().lower())
print(sorted(collections.Counter(words).most_common(10), key=lambda kv: (-kv[1], kv[0])))
print(json.dumps({"perm": ["".join(x) for x in itertools.permutations("abcd", 2)]}, sort_keys=True))
class Node(object):
    def __init__(self, v, kids=()):
        self.v, self.kids = v, list(kids)
    def total(self):
        return self.v + sum(k.total() for k in self.kids)
t = Node(1, [Node(i, [Node(j) for j in range(i)]) for i in range(30)])
print("tree total", t.total())
