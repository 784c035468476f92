package dev.reprise.agent.runtime;

/** Rebuilds a recorded exception from its class name and message. */
final class Exceptions {
    private Exceptions() {
    }

    static Throwable recreate(String className, String message) {
        try {
            Class<?> c = Class.forName(className, false, null);
            if (Throwable.class.isAssignableFrom(c)) {
                try {
                    return (Throwable) c.getConstructor(String.class).newInstance(message);
                } catch (NoSuchMethodException e) {
                    return (Throwable) c.getConstructor().newInstance();
                }
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            // fall through: the class is not a JDK one or cannot be built from a message
        }
        return new RuntimeException(className + ": " + message);
    }
}
