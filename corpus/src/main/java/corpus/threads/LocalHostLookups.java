package corpus.threads;

import java.net.InetAddress;
import java.net.UnknownHostException;

import corpus.Expect;

/**
 * Threads that ask for the machine's own address at once, as JGit's garbage collectors each
 * write it into their lock file: {@code InetAddress} keeps the answer in a cache, and which thread
 * asks the system and which finds another's answer there is a race. Each thread prints what it
 * got, by name and by address, which are the same in every run. Expected: a replay makes the
 * recording's lookups, no more, on the recording's threads.
 */
@Expect
public final class LocalHostLookups {
    private static final int THREADS = 3;

    private LocalHostLookups() {
    }

    public static void main(String[] args) throws InterruptedException {
        String[] answers = new String[THREADS];
        AtOnce.run(THREADS, id -> {
            try {
                StringBuilder seen = new StringBuilder();
                for (int i = 0; i < 3; i++) {
                    InetAddress local = InetAddress.getLocalHost();
                    InetAddress loopback = InetAddress.getByName("localhost");
                    seen.append(local.equals(InetAddress.getLocalHost())).append(' ')
                            .append(loopback.isLoopbackAddress()).append(' ');
                }
                answers[id] = seen.toString().trim();
            } catch (UnknownHostException e) {
                answers[id] = e.toString();
            }
        });
        for (String a : answers) {
            System.out.println(a);
        }
    }
}
