package corpus.threads;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Lists the JVM's threads every way a program can, as a thread-leak check or a log's thread dump
 * does, while its three workers wait: the root group's enumeration and count, every thread's
 * stack, and the management bean's ids and dump. Each list's names are printed sorted: those of
 * the program's and the JVM's threads, as a plain run has them.
 */
public final class ThreadLists {
    public static void main(String[] args) throws Exception {
        CountDownLatch started = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread t = new Thread(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "worker-" + i);
            t.start();
            workers.add(t);
        }
        started.await();

        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] listed = new Thread[root.activeCount() + 16];
        List<String> enumerated = new ArrayList<>();
        for (int i = 0, n = root.enumerate(listed, true); i < n; i++) {
            enumerated.add(listed[i].getName());
        }
        print("enumerated", enumerated);
        List<String> stacks = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            stacks.add(t.getName());
        }
        print("with stacks", stacks);
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        List<String> byId = new ArrayList<>();
        for (ThreadInfo info : bean.getThreadInfo(bean.getAllThreadIds())) {
            if (info != null) {
                byId.add(info.getThreadName());
            }
        }
        print("by id", byId);
        List<String> dumped = new ArrayList<>();
        for (ThreadInfo info : bean.dumpAllThreads(false, false)) {
            dumped.add(info.getThreadName());
        }
        print("dumped", dumped);

        release.countDown();
        for (Thread t : workers) {
            t.join();
        }
    }

    private static void print(String how, List<String> names) {
        Collections.sort(names);
        System.out.println(how + " (" + names.size() + "): " + String.join(", ", names));
    }
}
