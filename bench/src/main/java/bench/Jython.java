package bench;

import java.util.Properties;

import org.python.core.PyInteger;
import org.python.core.PyObject;
import org.python.util.PythonInterpreter;

/**
 * jython: runs a small Python program (a sieve, dictionaries, string work, sorting, classes) in
 * Jython. The package cache is off, so nothing is written beside the jar. The console encoding is
 * given, or Jython would ask a child process ({@code locale charmap}), which Reprise does not
 * record yet: the process's exit races the reading of its output, and replays diverged there.
 */
public final class Jython {
    private static final String PROGRAM = """
        def sieve(n):
            flags = [True] * (n + 1)
            flags[0] = flags[1] = False
            for i in range(2, int(n ** 0.5) + 1):
                if flags[i]:
                    for j in range(i * i, n + 1, i):
                        flags[j] = False
            return [i for i, f in enumerate(flags) if f]

        class Account(object):
            def __init__(self, name, balance):
                self.name = name
                self.balance = balance
            def move(self, other, amount):
                self.balance -= amount
                other.balance += amount

        def run(size):
            primes = sieve(size * 10)
            words = {}
            for p in primes:
                w = "w%d" % (p % 997)
                words[w] = words.get(w, 0) + p
            accounts = [Account("a%d" % i, 1000) for i in range(100)]
            for i in range(size):
                accounts[i % 100].move(accounts[(i * 7) % 100], i % 13)
            text = " ".join(sorted(words.keys(), key=lambda k: (-words[k], k)))
            total = sum(a.balance for a in accounts)
            return "%d %d %d %d" % (len(primes), sum(primes) % 1000003, len(text), total)
        """;

    private Jython() {
    }

    public static void main(String[] args) {
        Timed.begin();
        int size = Integer.parseInt(args[0]);
        Properties props = new Properties();
        props.setProperty("python.cachedir.skip", "true");
        props.setProperty("python.import.site", "false");
        props.setProperty("python.console.encoding", "UTF-8");
        PythonInterpreter.initialize(System.getProperties(), props, new String[0]);
        ResultDigest digest = new ResultDigest();
        try (PythonInterpreter py = new PythonInterpreter()) {
            py.exec(PROGRAM);
            PyObject run = py.get("run");
            for (int i = 1; i <= 4; i++) {
                digest.add(run.__call__(new PyInteger(size * i)).toString());
            }
        }
        digest.print("jython");
        Timed.end();
    }
}
