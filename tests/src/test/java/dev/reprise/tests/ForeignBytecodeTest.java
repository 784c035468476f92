package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Bytecode javac never writes but the JVM runs (optimizers and other compilers emit it): recorded
 * and replayed as it runs without Reprise.
 */
class ForeignBytecodeTest {
    @TempDir
    Path tmp;

    /**
     * A synchronized instance method that stores an int into local 0 once it no longer needs
     * {@code this}, as an optimizer reusing the slot may; then loops on it, so that stack map
     * frames describe the reused slot. Four threads call it; each call returns the count it made,
     * plus 3.
     */
    @Test
    void synchronizedMethodReusingThisSlotIsRecordedAndReplayed() throws IOException {
        recordsAndReplaysCounting(counter());
    }

    /**
     * A synchronized instance method with a stack map frame that leaves {@code this} out of local
     * 0 after its last use (as other compilers and bytecode instrumenters write them), before a
     * return: the return must still release the monitor, and the class must verify. Four threads
     * call it; each call returns the count it made, plus 3.
     */
    @Test
    void synchronizedMethodWhoseFrameDropsThisIsRecordedAndReplayed() throws IOException {
        recordsAndReplaysCounting(counterDroppingThis());
    }

    /**
     * A class file of Java 1.4 (version 48, as commons-collections 3 still ships): its
     * {@code add} calls a static synchronized method and {@code Map.get} on a {@code Hashtable}
     * through the interface, which Reprise makes lock the class and the table in code that loads
     * each with {@code ldc}; such a file must then be raised to a version that allows it, or the
     * JVM refuses the class.
     */
    @Test
    void classFileOfJava14IsRecordedAndReplayed() throws IOException {
        recordsAndReplaysCounting(counterOfJava14());
    }

    /**
     * Runs, records and replays a program in which four threads call {@code app.Counter.add(1)}
     * 1000 times each, {@code counter} being that class's bytes.
     */
    private void recordsAndReplaysCounting(byte[] counter) throws IOException {
        Path work = tmp.resolve("build");
        Files.createDirectories(work.resolve("app"));
        Files.write(work.resolve("app/Counter.class"), counter);
        Programs.compile(work, Map.of("app/Main.java", """
                package app;
                public final class Main {
                    public static void main(String[] args) throws Exception {
                        Counter counter = new Counter();
                        long[] sums = new long[4];
                        Thread[] threads = new Thread[4];
                        for (int t = 0; t < threads.length; t++) {
                            int id = t;
                            threads[t] = new Thread(() -> {
                                for (int i = 0; i < 1000; i++) {
                                    sums[id] += counter.add(1);
                                }
                            });
                            threads[t].start();
                        }
                        long sum = 0;
                        for (int t = 0; t < threads.length; t++) {
                            threads[t].join();
                            sum += sums[t];
                        }
                        System.out.println("count " + (counter.add(0) - 3) + ", sum " + sum);
                    }
                }
                """));
        Path jar = tmp.resolve("app.jar");
        Programs.jar(jar, work, "app");
        List<String> command = List.of(Reprise.JAVA, "-cp", jar.toString(), "app.Main");

        Run plain = Reprise.exec(command, null, Map.of(), null);
        assertEquals(0, plain.status(), plain::toString);
        // Each add(1) returns 1..4000 once, plus 3, whatever the interleaving.
        assertEquals("count 4000, sum " + (4000L * 4001 / 2 + 3 * 4000) + "\n", plain.stdout());
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals(plain.stdout(), recorded.stdout());
        Reprise.assertReplaysMatch(rec, recorded, 3);
    }

    /**
     * {@code app.Counter}: {@code int count}, and {@code synchronized int add(int n)}: adds n to
     * count, stores count into local 0, adds 1 to it three times in a loop, returns it.
     */
    private static byte[] counter() {
        ClassWriter cw = counterClass(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        MethodVisitor add = addStart(cw);
        add.visitFieldInsn(Opcodes.PUTFIELD, "app/Counter", "count", "I");
        add.visitVarInsn(Opcodes.ALOAD, 0);
        add.visitFieldInsn(Opcodes.GETFIELD, "app/Counter", "count", "I");
        add.visitVarInsn(Opcodes.ISTORE, 0); // this is not needed again: its slot holds the count
        add.visitInsn(Opcodes.ICONST_0);
        add.visitVarInsn(Opcodes.ISTORE, 1);
        Label loop = new Label();
        Label done = new Label();
        add.visitLabel(loop);
        add.visitVarInsn(Opcodes.ILOAD, 1);
        add.visitInsn(Opcodes.ICONST_3);
        add.visitJumpInsn(Opcodes.IF_ICMPGE, done);
        add.visitIincInsn(0, 1);
        add.visitIincInsn(1, 1);
        add.visitJumpInsn(Opcodes.GOTO, loop);
        add.visitLabel(done);
        add.visitVarInsn(Opcodes.ILOAD, 0);
        add.visitInsn(Opcodes.IRETURN);
        return end(cw, add);
    }

    /**
     * {@code app.Counter} with {@code synchronized int add(int n)}: adds n to count, tests n (a
     * jump to the next instruction, whose frame lists no locals), returns count plus 3.
     */
    private static byte[] counterDroppingThis() {
        ClassWriter cw = counterClass(ClassWriter.COMPUTE_MAXS); // the frames as written
        MethodVisitor add = addStart(cw);
        add.visitInsn(Opcodes.DUP_X1);
        add.visitFieldInsn(Opcodes.PUTFIELD, "app/Counter", "count", "I"); // stack: count
        Label done = new Label();
        add.visitVarInsn(Opcodes.ILOAD, 1);
        add.visitJumpInsn(Opcodes.IFEQ, done);
        add.visitLabel(done);
        // Neither this nor n is used again: the frame lists no locals.
        add.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, new Object[] {Opcodes.INTEGER});
        add.visitInsn(Opcodes.ICONST_3);
        add.visitInsn(Opcodes.IADD);
        add.visitInsn(Opcodes.IRETURN);
        return end(cw, add);
    }

    /**
     * {@code app.Counter} in a class file of version 48, with {@code static Map TABLE = new
     * Hashtable()}, {@code static synchronized void tick()} and {@code synchronized int add(int n)}:
     * adds n to count, calls {@code tick()} and {@code TABLE.get("k")}, returns count plus 3.
     */
    private static byte[] counterOfJava14() {
        ClassWriter cw = counterClass(ClassWriter.COMPUTE_MAXS, Opcodes.V1_4);
        cw.visitField(Opcodes.ACC_STATIC, "TABLE", "Ljava/util/Map;", null, null).visitEnd();
        cw.visitField(Opcodes.ACC_STATIC, "ticks", "I", null, null).visitEnd();
        MethodVisitor clinit = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        clinit.visitCode();
        clinit.visitTypeInsn(Opcodes.NEW, "java/util/Hashtable");
        clinit.visitInsn(Opcodes.DUP);
        clinit.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/util/Hashtable", "<init>", "()V", false);
        clinit.visitFieldInsn(Opcodes.PUTSTATIC, "app/Counter", "TABLE", "Ljava/util/Map;");
        clinit.visitInsn(Opcodes.RETURN);
        clinit.visitMaxs(0, 0);
        clinit.visitEnd();
        MethodVisitor tick = cw.visitMethod(Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED, "tick", "()V", null, null);
        tick.visitCode();
        tick.visitFieldInsn(Opcodes.GETSTATIC, "app/Counter", "ticks", "I");
        tick.visitInsn(Opcodes.ICONST_1);
        tick.visitInsn(Opcodes.IADD);
        tick.visitFieldInsn(Opcodes.PUTSTATIC, "app/Counter", "ticks", "I");
        tick.visitInsn(Opcodes.RETURN);
        tick.visitMaxs(0, 0);
        tick.visitEnd();
        MethodVisitor add = addStart(cw);
        add.visitInsn(Opcodes.DUP_X1);
        add.visitFieldInsn(Opcodes.PUTFIELD, "app/Counter", "count", "I"); // stack: count
        add.visitMethodInsn(Opcodes.INVOKESTATIC, "app/Counter", "tick", "()V", false);
        add.visitFieldInsn(Opcodes.GETSTATIC, "app/Counter", "TABLE", "Ljava/util/Map;");
        add.visitLdcInsn("k");
        add.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/Map", "get", "(Ljava/lang/Object;)Ljava/lang/Object;", true);
        add.visitInsn(Opcodes.POP);
        add.visitInsn(Opcodes.ICONST_3);
        add.visitInsn(Opcodes.IADD);
        add.visitInsn(Opcodes.IRETURN);
        return end(cw, add);
    }

    /** {@code app.Counter} with {@code int count} and its constructor, to add {@code add} to. */
    private static ClassWriter counterClass(int flags) {
        return counterClass(flags, Opcodes.V17);
    }

    private static ClassWriter counterClass(int flags, int version) {
        ClassWriter cw = new ClassWriter(flags);
        cw.visit(version, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, "app/Counter", null, "java/lang/Object", null);
        cw.visitField(0, "count", "I", null, null).visitEnd();
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        return cw;
    }

    /** Begins {@code synchronized int add(int n)}, up to the stack {@code this, count + n}. */
    private static MethodVisitor addStart(ClassWriter cw) {
        MethodVisitor add = cw.visitMethod(Opcodes.ACC_SYNCHRONIZED, "add", "(I)I", null, null);
        add.visitCode();
        add.visitVarInsn(Opcodes.ALOAD, 0);
        add.visitInsn(Opcodes.DUP);
        add.visitFieldInsn(Opcodes.GETFIELD, "app/Counter", "count", "I");
        add.visitVarInsn(Opcodes.ILOAD, 1);
        add.visitInsn(Opcodes.IADD);
        return add;
    }

    private static byte[] end(ClassWriter cw, MethodVisitor add) {
        add.visitMaxs(0, 0);
        add.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
