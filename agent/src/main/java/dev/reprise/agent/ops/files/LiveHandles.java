package dev.reprise.agent.ops.files;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * File descriptors and directory streams the JDK opened on its own files ({@code JdkFiles}):
 * they are real in recording and replay alike, so every operation on them runs live and unlogged.
 * Any other handle is a recorded one (on replay: -1, never used). A number the kernel hands out
 * again for a recorded open proves the JDK closed its handle by other means: it is forgotten.
 */
final class LiveHandles {
    private static final Set<Long> LIVE = ConcurrentHashMap.newKeySet();

    private LiveHandles() {
    }

    static int add(int fd) {
        LIVE.add((long) fd);
        return fd;
    }

    static long add(long dir) {
        LIVE.add(dir);
        return dir;
    }

    static boolean contains(long handle) {
        return !LIVE.isEmpty() && LIVE.contains(handle);
    }

    /** A handle closed, or handed out for a recorded file. */
    static void forget(long handle) {
        if (!LIVE.isEmpty()) {
            LIVE.remove(handle);
        }
    }
}
