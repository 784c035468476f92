package corpus.threads;

import corpus.Expect;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/** Workers take jobs from a shared queue (wait/notify) and record who did what; the main thread then prints the log. */
@Expect
public final class WorkQueue {
    private final LinkedList<Integer> jobs = new LinkedList<>();
    private final List<String> log = new ArrayList<>();
    private boolean closed;

    synchronized void submit(int job) {
        jobs.add(job);
        notify();
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }

    synchronized Integer next() throws InterruptedException {
        while (jobs.isEmpty() && !closed) {
            wait();
        }
        return jobs.poll();
    }

    synchronized void done(String worker, int job, long result) {
        log.add(worker + " job " + job + " = " + result);
    }

    public static void main(String[] args) throws Exception {
        WorkQueue q = new WorkQueue();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            String name = "w" + w;
            Thread t = new Thread(() -> {
                try {
                    for (Integer job; (job = q.next()) != null; ) {
                        long r = 0;
                        for (int i = 0; i < job * 1000; i++) {
                            r += i % (job + 1);
                        }
                        q.done(name, job, r);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            workers.add(t);
            t.start();
        }
        for (int j = 1; j <= 60; j++) {
            q.submit(j);
            if (j % 10 == 0) {
                Thread.sleep(1);
            }
        }
        q.close();
        for (Thread t : workers) {
            t.join();
        }
        synchronized (q) {
            q.log.forEach(System.out::println);
        }
    }
}
