package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.jar.JarFile;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.ops.RecordingCopies;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Jars a program appends to the class path through an agent's {@code Instrumentation}: Mockito's
 * inline mock maker writes its bootstrap classes to a temporary jar and appends it to the boot
 * class path. The JVM opens the jar itself, and a replay, which writes no file, has none, so the
 * program's classes would not be found there. The recording keeps a copy of the jar
 * ({@code appended-<crc>-<size>.jar}), which a replay appends in its place.
 */
public final class InstrumentationOps {
    private static final Op APPEND = Op.named("instrument.jar.append");
    private static final String KIND = "appended";
    private static final String EXT = "jar";
    private static final Class<?> IMPL = JdkMethods.jdkClass("sun.instrument.InstrumentationImpl");
    private static final MethodHandle BOOT_LIVE = append("appendToBootstrapClassLoaderSearch");
    private static final MethodHandle SYSTEM_LIVE = append("appendToSystemClassLoaderSearch");

    private InstrumentationOps() {
    }

    private static MethodHandle append(String name) {
        return JdkMethods.special(IMPL, name, MethodType.methodType(void.class, JarFile.class))
                .asType(MethodType.methodType(void.class, Object.class, JarFile.class));
    }

    @Prologue(owner = "sun/instrument/InstrumentationImpl", method = "appendToBootstrapClassLoaderSearch",
            desc = "(Ljava/util/jar/JarFile;)V")
    public static void appendToBoot(Object inst, JarFile jar) throws Throwable {
        append(inst, jar, BOOT_LIVE, 1);
    }

    @Prologue(owner = "sun/instrument/InstrumentationImpl", method = "appendToSystemClassLoaderSearch",
            desc = "(Ljava/util/jar/JarFile;)V")
    public static void appendToSystem(Object inst, JarFile jar) throws Throwable {
        append(inst, jar, SYSTEM_LIVE, 2);
    }

    /** Records the copy's name ("" for a jar that is no file) and appends the jar, or on replay the copy. */
    private static void append(Object inst, JarFile jar, MethodHandle live, int which) throws Throwable {
        String name = jar == null ? "" : jar.getName();
        Ev ev = Ev.begin(APPEND, 0, Digest.of(name) ^ which);
        String copy = ev.s(ev.recording() ? RecordingCopies.copy(name, KIND, EXT) : null);
        if (ev.recording() || copy.isEmpty()) {
            live.invokeExact(inst, jar);
        } else {
            live.invokeExact(inst, new JarFile(
                    RecordingCopies.checked(copy, KIND, EXT, "a jar the program appended to the class path").toFile()));
        }
    }
}
