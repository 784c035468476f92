package dev.reprise.agent.ops;

import java.util.List;

/**
 * Atomic variables. Every public operation of {@code AtomicInteger}, {@code AtomicLong},
 * {@code AtomicBoolean} and {@code AtomicReference} that reads or writes the value is an ordered
 * operation on the atomic object (its JMM synchronization actions, relaxed per object by the
 * last-owner rule): {@code instrument/OrderedMethodRewriter} wraps each body in
 * {@code Ordered.enterMethod}/{@code exitMethod}, so the body runs live, in its recorded turn,
 * under the slot lock that makes operation and record atomic. Compare-and-set retry loops thus
 * see the same values on replay. Nothing but the order is logged.
 */
public final class AtomicOps {
    /** One declared ordered method: class, name, descriptor. Its index in {@link #METHODS} is its argument digest. */
    public record Method(String owner, String name, String desc) {
    }

    /** Every ordered method, in a fixed order. */
    public static final List<Method> METHODS = List.of(
            m("AtomicInteger", "get()I"), m("AtomicInteger", "set(I)V"), m("AtomicInteger", "lazySet(I)V"),
            m("AtomicInteger", "getAndSet(I)I"), m("AtomicInteger", "compareAndSet(II)Z"),
            m("AtomicInteger", "weakCompareAndSetVolatile(II)Z"), m("AtomicInteger", "getAndIncrement()I"),
            m("AtomicInteger", "getAndDecrement()I"), m("AtomicInteger", "getAndAdd(I)I"),
            m("AtomicInteger", "incrementAndGet()I"), m("AtomicInteger", "decrementAndGet()I"),
            m("AtomicInteger", "addAndGet(I)I"), m("AtomicInteger", "getAndUpdate(Ljava/util/function/IntUnaryOperator;)I"),
            m("AtomicInteger", "updateAndGet(Ljava/util/function/IntUnaryOperator;)I"),
            m("AtomicInteger", "getAndAccumulate(ILjava/util/function/IntBinaryOperator;)I"),
            m("AtomicInteger", "accumulateAndGet(ILjava/util/function/IntBinaryOperator;)I"),
            m("AtomicLong", "get()J"), m("AtomicLong", "set(J)V"), m("AtomicLong", "lazySet(J)V"),
            m("AtomicLong", "getAndSet(J)J"), m("AtomicLong", "compareAndSet(JJ)Z"),
            m("AtomicLong", "weakCompareAndSetVolatile(JJ)Z"), m("AtomicLong", "getAndIncrement()J"),
            m("AtomicLong", "getAndDecrement()J"), m("AtomicLong", "getAndAdd(J)J"),
            m("AtomicLong", "incrementAndGet()J"), m("AtomicLong", "decrementAndGet()J"),
            m("AtomicLong", "addAndGet(J)J"), m("AtomicLong", "getAndUpdate(Ljava/util/function/LongUnaryOperator;)J"),
            m("AtomicLong", "updateAndGet(Ljava/util/function/LongUnaryOperator;)J"),
            m("AtomicLong", "getAndAccumulate(JLjava/util/function/LongBinaryOperator;)J"),
            m("AtomicLong", "accumulateAndGet(JLjava/util/function/LongBinaryOperator;)J"),
            m("AtomicBoolean", "get()Z"), m("AtomicBoolean", "set(Z)V"), m("AtomicBoolean", "getAndSet(Z)Z"),
            m("AtomicBoolean", "compareAndSet(ZZ)Z"),
            m("AtomicReference", "get()Ljava/lang/Object;"), m("AtomicReference", "set(Ljava/lang/Object;)V"),
            m("AtomicReference", "getAndSet(Ljava/lang/Object;)Ljava/lang/Object;"),
            m("AtomicReference", "compareAndSet(Ljava/lang/Object;Ljava/lang/Object;)Z"),
            m("AtomicReference", "getAndUpdate(Ljava/util/function/UnaryOperator;)Ljava/lang/Object;"),
            m("AtomicReference", "updateAndGet(Ljava/util/function/UnaryOperator;)Ljava/lang/Object;"));

    private AtomicOps() {
    }

    private static Method m(String simpleName, String signature) {
        int paren = signature.indexOf('(');
        return new Method("java/util/concurrent/atomic/" + simpleName, signature.substring(0, paren), signature.substring(paren));
    }
}
