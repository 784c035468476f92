package corpus.reflect;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

/** Prints reflected members in the order reflection returns them, which HotSpot derives from symbol addresses. */
public final class MemberOrder {
    public MemberOrder() {
    }

    public MemberOrder(int a) {
    }

    public MemberOrder(String s) {
    }

    public MemberOrder(long a, int b) {
    }

    public void alpha() {
    }

    public void beta() {
    }

    public void gamma() {
    }

    public void delta() {
    }

    public void epsilon(int x) {
    }

    public void epsilon(String s) {
    }

    public void zeta() {
    }

    public void eta() {
    }

    public void theta() {
    }

    public static void main(String[] args) throws Exception {
        StringBuilder sb = new StringBuilder("declared:");
        for (Method m : MemberOrder.class.getDeclaredMethods()) {
            sb.append(' ').append(m.getName()).append(m.getParameterCount());
        }
        sb.append("\nconstructors:");
        for (Constructor<?> c : MemberOrder.class.getConstructors()) {
            sb.append(' ').append(c.getParameterCount());
        }
        sb.append("\npublic:");
        for (Method m : MemberOrder.class.getMethods()) {
            sb.append(' ').append(m.getName());
        }
        sb.append("\nthread:");
        for (Method m : Thread.class.getDeclaredMethods()) {
            sb.append(' ').append(m.getName());
        }
        System.out.println(sb);
    }
}
