package corpus.single;

import corpus.Expect;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;

/**
 * Objects first hashed through reflection, as a framework's generic invoker or a script engine
 * calls methods: {@code Method.invoke} of {@code Object.hashCode} and of
 * {@code System.identityHashCode}, which reach the JVM's native methods through no call site of
 * the program's. A map keyed by the hashes the program then asks for iterates in their order.
 */
@Expect
public final class ReflectiveHashes {
    private ReflectiveHashes() {
    }

    public static void main(String[] args) throws Exception {
        Method hashCode = Object.class.getMethod("hashCode");
        Method identityHashCode = System.class.getMethod("identityHashCode", Object.class);
        Map<Integer, String> byHash = new TreeMap<>();
        for (int i = 0; i < 8; i++) {
            Object a = new Object();
            Object b = new Object();
            hashCode.invoke(a);
            identityHashCode.invoke(null, b);
            byHash.put(System.identityHashCode(a), "hashCode " + i);
            byHash.put(b.hashCode(), "identityHashCode " + i);
        }
        System.out.println(byHash.values());
    }
}
