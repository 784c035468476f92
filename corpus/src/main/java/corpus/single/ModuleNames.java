package corpus.single;

import java.lang.reflect.Field;

/**
 * Prints what names a module by its identity hash: the class path's unnamed module, and the
 * message of a reflective access the module system refuses (as a test suite run without
 * {@code --add-opens} prints it for every such test).
 */
public final class ModuleNames {
    public static void main(String[] args) throws Exception {
        System.out.println("module: " + ModuleNames.class.getModule());
        Field digits = Integer.class.getDeclaredField("digits");
        try {
            digits.setAccessible(true);
            System.out.println("opened " + digits);
        } catch (RuntimeException e) {
            System.out.println("refused: " + e.getMessage());
        }
    }
}
