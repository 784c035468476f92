package corpus.single;

import corpus.Expect;
import java.lang.annotation.Annotation;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jdk.dynalink.CallSiteDescriptor;
import jdk.dynalink.StandardNamespace;
import jdk.dynalink.StandardOperation;

/**
 * Keys whose hash the JDK computes in its own code from classes' identity hashes: method types
 * (a script engine's call sites), dynalink call-site descriptors, annotations with class members
 * (a dependency injector's keys) and type variables of generic classes. Hash sets of each are
 * printed in iteration order; then, with a second thread started so main's monitors are ordered,
 * a concurrent map of method types, whose colliding bins are locked and whose empty ones are not.
 */
@Expect(plainRunsDiffer = true)
public final class JdkTypeKeys {
    @Retention(RetentionPolicy.RUNTIME)
    @interface Names {
        Class<?> value();
    }

    @Names(Alpha.class)
    static final class Alpha<A> {
    }

    @Names(Beta.class)
    static final class Beta<B> {
    }

    @Names(Gamma.class)
    static final class Gamma<C> {
    }

    @Names(Delta.class)
    static final class Delta<D> {
    }

    @Names(Epsilon.class)
    static final class Epsilon<E> {
    }

    @Names(Zeta.class)
    static final class Zeta<F> {
    }

    private JdkTypeKeys() {
    }

    public static void main(String[] args) throws Exception {
        // A clock-driven number of earlier identity hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        List<Class<?>> classes = List.of(Alpha.class, Beta.class, Gamma.class, Delta.class, Epsilon.class, Zeta.class);

        Set<MethodType> types = new HashSet<>();
        for (Class<?> c : classes) {
            types.add(MethodType.methodType(c));
            types.add(MethodType.methodType(void.class, c, int.class));
        }
        System.out.println("method types: " + names(types));

        Set<CallSiteDescriptor> descriptors = new HashSet<>();
        StandardOperation[] operations = StandardOperation.values();
        for (int i = 0; i < classes.size() * 2; i++) {
            descriptors.add(new CallSiteDescriptor(MethodHandles.lookup(),
                    operations[i % operations.length].withNamespace(StandardNamespace.PROPERTY).named("p" + i),
                    MethodType.methodType(classes.get(i % classes.size()), Object.class)));
        }
        List<String> ops = new ArrayList<>();
        for (CallSiteDescriptor d : descriptors) {
            ops.add(d.getOperation().toString());
        }
        System.out.println("call sites: " + ops);

        Set<Annotation> annotations = new HashSet<>();
        Set<TypeVariable<?>> variables = new HashSet<>();
        for (Class<?> c : classes) {
            annotations.add(c.getAnnotation(Names.class));
            variables.add(c.getTypeParameters()[0]);
        }
        List<String> named = new ArrayList<>();
        for (Annotation a : annotations) {
            named.add(((Names) a).value().getSimpleName());
        }
        System.out.println("annotations: " + named);
        System.out.println("type variables: " + variables);

        Thread other = new Thread(() -> System.out.println("second thread"));
        other.start();
        other.join();
        ConcurrentMap<MethodType, Integer> bins = new ConcurrentHashMap<>(16);
        for (int i = 0; i < classes.size(); i++) {
            bins.putIfAbsent(MethodType.methodType(classes.get(i), long.class), i);
            bins.putIfAbsent(MethodType.methodType(classes.get(i), String.class, classes.get(i)), i);
        }
        System.out.println("concurrent map: " + names(bins.keySet()));
    }

    private static String names(Set<MethodType> types) {
        return types.toString().replace(JdkTypeKeys.class.getName() + "$", "");
    }
}
