package dev.reprise.agent.ops.files;

import static dev.reprise.agent.ops.files.UnixFileSystemCalls.FILE;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.FS;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.UFS;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.digest;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.handle;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * What {@code java.io.File} changes on disk: deleting, creating, renaming, and setting times
 * and permissions. Replay changes nothing: each call returns the recorded outcome. Files marked
 * {@code deleteOnExit} are not registered on replay, so the JDK's exit hook finds none to delete.
 */
public final class FileChangeOps {
    private static final String DELETE_ON_EXIT_HOOK = "java/io/DeleteOnExitHook";

    private static final Op DELETE = Op.named("file.delete");
    private static final Op RENAME = Op.named("file.rename");
    private static final Op MKDIR = Op.named("file.mkdir");
    private static final Op CREATE = Op.named("file.create");
    private static final Op SET_MODIFIED = Op.named("file.setmtime");
    private static final Op SET_READ_ONLY = Op.named("file.setreadonly");
    private static final Op SET_PERMISSION = Op.named("file.setperm");
    private static final Op DELETE_ON_EXIT = Op.named("file.deleteonexit");

    private static final MethodHandle DELETE_LIVE = handle("delete", boolean.class, File.class);
    private static final MethodHandle RENAME_LIVE = handle("rename", boolean.class, File.class, File.class);
    private static final MethodHandle MKDIR_LIVE = handle("createDirectory", boolean.class, File.class);
    private static final MethodHandle CREATE_LIVE = handle("createFileExclusively", boolean.class, String.class);
    private static final MethodHandle SET_MODIFIED_LIVE = handle("setLastModifiedTime", boolean.class, File.class, long.class);
    private static final MethodHandle SET_READ_ONLY_LIVE = handle("setReadOnly", boolean.class, File.class);
    private static final MethodHandle SET_PERMISSION_LIVE =
            handle("setPermission", boolean.class, File.class, int.class, boolean.class, boolean.class);

    private static final Class<?> DELETE_ON_EXIT_CLASS = JdkMethods.jdkClass("java.io.DeleteOnExitHook");
    private static final MethodHandle DELETE_ON_EXIT_LIVE =
            JdkMethods.statik(DELETE_ON_EXIT_CLASS, "add", MethodType.methodType(void.class, String.class));
    private static final MethodHandle RUN_DELETE_ON_EXIT_LIVE =
            JdkMethods.statik(DELETE_ON_EXIT_CLASS, "runHooks", MethodType.methodType(void.class));

    private FileChangeOps() {
    }

    @Prologue(owner = UFS, method = "delete", desc = "(Ljava/io/File;)Z")
    public static boolean delete(Object fs, File f) throws Throwable {
        return change(DELETE, 0, DELETE_LIVE, fs, f);
    }

    @Prologue(owner = UFS, method = "rename", desc = "(Ljava/io/File;Ljava/io/File;)Z")
    public static boolean rename(Object fs, File from, File to) throws Throwable {
        Ev ev = Ev.begin(RENAME, 0, 31 * digest(from) + digest(to));
        return ev.z(ev.live() && (boolean) RENAME_LIVE.invokeExact(fs, from, to));
    }

    /** {@code mkdir}, and each level of {@code mkdirs}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "createDirectory", desc = "(Ljava/io/File;)Z", alsoIn = FILE)
    @Claimed(live = "MKDIR_LIVE", site = true)
    public static boolean createDirectory(Object fs, File f, int site) throws Throwable {
        return change(MKDIR, site, MKDIR_LIVE, fs, f);
    }

    /** {@code createNewFile} and {@code createTempFile}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "createFileExclusively", desc = "(Ljava/lang/String;)Z",
            alsoIn = FILE)
    @Claimed(live = "CREATE_LIVE", site = true)
    public static boolean createFileExclusively(Object fs, String path, int site) throws Throwable {
        Ev ev = Ev.begin(CREATE, site, Digest.of(path));
        return ev.z(ev.live() && (boolean) CREATE_LIVE.invokeExact(fs, path));
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "setLastModifiedTime", desc = "(Ljava/io/File;J)Z",
            alsoIn = FILE)
    @Claimed(live = "SET_MODIFIED_LIVE", site = true)
    public static boolean setLastModifiedTime(Object fs, File f, long time, int site) throws Throwable {
        Ev ev = Ev.begin(SET_MODIFIED, site, digest(f) ^ Long.hashCode(time));
        return ev.z(ev.live() && (boolean) SET_MODIFIED_LIVE.invokeExact(fs, f, time));
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "setReadOnly", desc = "(Ljava/io/File;)Z", alsoIn = FILE)
    @Claimed(live = "SET_READ_ONLY_LIVE", site = true)
    public static boolean setReadOnly(Object fs, File f, int site) throws Throwable {
        return change(SET_READ_ONLY, site, SET_READ_ONLY_LIVE, fs, f);
    }

    /** A change to {@code f} alone, {@code (File)boolean}: its outcome. */
    private static boolean change(Op op, int site, MethodHandle live, Object fs, File f) throws Throwable {
        Ev ev = Ev.begin(op, site, digest(f));
        return ev.z(ev.live() && (boolean) live.invokeExact(fs, f));
    }

    /** {@code setReadable}, {@code setWritable}, {@code setExecutable}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "setPermission", desc = "(Ljava/io/File;IZZ)Z",
            alsoIn = FILE)
    @Claimed(live = "SET_PERMISSION_LIVE", site = true)
    public static boolean setPermission(Object fs, File f, int access, boolean enable, boolean ownerOnly, int site)
            throws Throwable {
        Ev ev = Ev.begin(SET_PERMISSION, site, digest(f) ^ (access << 2 | (enable ? 2 : 0) | (ownerOnly ? 1 : 0)));
        return ev.z(ev.live() && (boolean) SET_PERMISSION_LIVE.invokeExact(fs, f, access, enable, ownerOnly));
    }

    /** {@code File.deleteOnExit}: registered only while recording; replay has nothing to delete at exit. */
    @Prologue(owner = DELETE_ON_EXIT_HOOK, method = "add", desc = "(Ljava/lang/String;)V")
    public static void deleteOnExit(String path) throws Throwable {
        Ev ev = Ev.begin(DELETE_ON_EXIT, 0, Digest.of(path));
        if (ev.live()) {
            DELETE_ON_EXIT_LIVE.invokeExact(path);
        }
    }

    /**
     * The exit hook's deletions, when the exiting thread is a recorded one ({@code System.exit}
     * on it): they run live and are not logged, as on the JVM's unrecorded shutdown thread, so
     * the recording does not depend on which thread ends the program.
     */
    @Prologue(owner = DELETE_ON_EXIT_HOOK, method = "runHooks", desc = "()V")
    public static void runDeleteOnExit() throws Throwable {
        RUN_DELETE_ON_EXIT_LIVE.invokeExact();
    }
}
