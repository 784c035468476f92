package dev.reprise.agent.ops.environment;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * {@code sun.misc.Unsafe}'s warning on the first use of a memory-access method (JDK 24 and later
 * by default): every such call reads a flag, and the thread whose compare-and-set raises it walks
 * its stack and prints a warning that names its own method and caller. Which thread that is, an
 * unordered race decides, inside the call's own synchronization action where nothing is an event;
 * a replay printed another thread's warning, or the same one at another moment.
 *
 * <p>So each of the program's calls of such a method is preceded ({@code instrument/
 * UnsafeWarningRewriter}) by {@link #before}: a thread's first makes an event that raises the
 * flag and logs whether this thread raised it; the one that did prints the JDK's warning itself,
 * after the event, where its writes are the program's ordered output. The JDK's own check inside
 * the call then finds the flag raised. Replay raises the flag as well, so that no check the
 * recording did not make prints.
 */
public final class UnsafeWarningOps {
    private static final Op WARNING = Op.named("unsafe.warning");
    private static final String UNSAFE = "sun.misc.Unsafe";
    private static final MethodHandle RAISE = JdkMethods.statikIfPresent(UNSAFE, "trySetMemoryAccessWarned",
            MethodType.methodType(boolean.class));
    private static final MethodHandle MESSAGE = JdkMethods.statikIfPresent(UNSAFE, "multiLineWarning",
            MethodType.methodType(String.class, Class.class, String.class));
    private static final MethodHandle LOG = JdkMethods.statikIfPresent(UNSAFE, "log",
            MethodType.methodType(void.class, String.class));
    /** The JDK warns once, and every part of it is reachable: only then are calls preceded. */
    public static final boolean ON = RAISE != null && MESSAGE != null && LOG != null && warnsOnce();
    /** The names of the methods that check the flag, read from the JDK's class: empty when off. */
    public static final Set<String> MEMORY_ACCESS = ON ? memoryAccessMethods() : Set.of();

    private UnsafeWarningOps() {
    }

    /** Whether the JDK's memory-access option is "warn", its default, rather than allow, debug or deny. */
    private static boolean warnsOnce() {
        Class<?> option = JdkMethods.jdkClassIfPresent(UNSAFE + "$MemoryAccessOption");
        VarHandle h = option == null ? null
                : JdkMethods.staticFieldIfPresent(JdkMethods.jdkClass(UNSAFE), "MEMORY_ACCESS_OPTION", option);
        return h != null && "WARN".equals(((Enum<?>) h.get()).name());
    }

    private static Set<String> memoryAccessMethods() {
        Set<String> names = new HashSet<>();
        try (InputStream in = JdkMethods.jdkClass(UNSAFE).getResourceAsStream("Unsafe.class")) {
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                    return (access & Opcodes.ACC_PUBLIC) == 0 ? null : new MethodVisitor(Opcodes.ASM9) {
                        @Override
                        public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                            if (method.equals("beforeMemoryAccess")) {
                                names.add(name);
                            }
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + UNSAFE, e);
        }
        return Set.copyOf(names);
    }

    /** Before the program's call of {@code method}, a memory-access method, from {@code caller}. */
    public static void before(Class<?> caller, String method) throws Throwable {
        if (!Rt.active) {
            return;
        }
        ThreadCtx c = Rt.current();
        if (c.unsafeWarned || !Rt.claim()) {
            return;
        }
        boolean raised;
        Ev ev = Ev.begin(WARNING, 0, 0);
        try {
            raised = ev.z((boolean) RAISE.invokeExact());
        } finally {
            ev.end();
        }
        // The flag never falls: once raised, this thread's later calls need no event.
        c.unsafeWarned = true;
        if (raised) {
            LOG.invokeExact((String) MESSAGE.invokeExact(caller, method));
        }
    }
}
