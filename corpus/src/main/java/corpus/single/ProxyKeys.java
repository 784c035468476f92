package corpus.single;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;

import corpus.Expect;
import sun.misc.Unsafe;

/**
 * Prints the identity hash of {@code Proxy}'s cache key, which the JDK's class loading code
 * ({@code jdk.internal.loader}) hashes first, as it files each proxy class under its class loader.
 * A library that weaves identity lookups into JDK methods (Mockito's inline mock maker, into
 * {@code Object.equals}) meets that object and hashes it again: it must get the same value in a
 * replay. The program reaches the key as such a library does, around the module system, here by
 * {@code sun.misc.Unsafe}.
 */
@Expect
public final class ProxyKeys {
    public static void main(String[] args) throws ReflectiveOperationException {
        Proxy.newProxyInstance(ProxyKeys.class.getClassLoader(), new Class<?>[] {Runnable.class},
                (self, method, methodArgs) -> null);
        Field theUnsafe = Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Unsafe unsafe = (Unsafe) theUnsafe.get(null);
        Field cacheField = Proxy.class.getDeclaredField("proxyCache");
        Object cache = unsafe.getObject(unsafe.staticFieldBase(cacheField), unsafe.staticFieldOffset(cacheField));
        System.out.println(cache.getClass().getSimpleName() + " hash: " + System.identityHashCode(cache));
    }
}
