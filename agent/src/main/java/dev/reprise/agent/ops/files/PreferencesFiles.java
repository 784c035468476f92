package dev.reprise.agent.ops.files;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The natives of {@code java.util.prefs}' file store ({@code FileSystemPreferences}): it sets the
 * permissions of the directories it makes and locks its files, in C, where no hook of Java's I/O
 * sees it. Each is an event whose result (a lock's descriptor and errno, chmod's status) a replay
 * returns without touching the files: run live, it changed the permissions of, or failed on, the
 * replaying user's directories, which the recording's own store may never have had, and took
 * another path (a replay whose user had no {@code ~/.java} diverged).
 */
public final class PreferencesFiles {
    private static final String PREFS = "java/util/prefs/FileSystemPreferences";
    /** The store's calls are made from its privileged actions, its inner classes: the package's. */
    private static final String PACKAGE = "java/util/prefs/";
    private static final Op LOCK = Op.named("prefs.lock");
    private static final Op UNLOCK = Op.named("prefs.unlock");
    private static final Op CHMOD = Op.named("prefs.chmod");

    private PreferencesFiles() {
    }

    /** The natives, looked up as the program first uses its preferences. */
    private static final class Live {
        private static final Class<?> STORE = JdkMethods.jdkClass(PREFS.replace('/', '.'));
        static final MethodHandle LOCK = handle("lockFile0", int[].class, String.class, int.class, boolean.class);
        static final MethodHandle UNLOCK = handle("unlockFile0", int.class, int.class);
        static final MethodHandle CHMOD = handle("chmod", int.class, String.class, int.class);

        private static MethodHandle handle(String name, Class<?> returned, Class<?>... params) {
            return JdkMethods.statik(STORE, name, MethodType.methodType(returned, params));
        }
    }

    /** The lock's descriptor and the errno of a failure. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = PREFS, method = "lockFile0", desc = "(Ljava/lang/String;IZ)[I",
            alsoIn = PACKAGE)
    public static int[] lockFile0(String file, int permission, boolean shared) throws Throwable {
        return lock(Live.LOCK, file, permission, shared);
    }

    @Claimed
    private static int[] lock(MethodHandle live, String file, int permission, boolean shared) throws Throwable {
        Ev ev = Ev.begin(LOCK, 0, 31 * Digest.of(file) + (shared ? 1 : 0));
        int[] result = ev.live() ? (int[]) live.invokeExact(file, permission, shared) : new int[2];
        result[0] = ev.i(result[0]);
        result[1] = ev.i(result[1]);
        return result;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = PREFS, method = "unlockFile0", desc = "(I)I", alsoIn = PACKAGE)
    public static int unlockFile0(int lock) throws Throwable {
        return unlock(Live.UNLOCK, lock);
    }

    @Claimed
    private static int unlock(MethodHandle live, int lock) throws Throwable {
        Ev ev = Ev.begin(UNLOCK, 0, 0);
        return ev.i(ev.live() ? (int) live.invokeExact(lock) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = PREFS, method = "chmod", desc = "(Ljava/lang/String;I)I", alsoIn = PACKAGE)
    public static int chmod(String file, int permission) throws Throwable {
        return chmod(Live.CHMOD, file, permission);
    }

    @Claimed
    private static int chmod(MethodHandle live, String file, int permission) throws Throwable {
        Ev ev = Ev.begin(CHMOD, 0, 31 * Digest.of(file) + permission);
        return ev.i(ev.live() ? (int) live.invokeExact(file, permission) : 0);
    }
}
