package dev.loomcrawl.crawler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages point one way, from the front door down to the values (docs/architecture.md): a
 * package uses only the packages below it, so there is no cycle. Read from the compiled classes.
 */
class PackageOrderTest {
    private static final String ROOT = "dev.loomcrawl.crawler";

    /** Bottom to top. */
    static final List<String> ORDER = List.of(
            ROOT + ".url",
            ROOT + ".concurrent",
            ROOT + ".encoding",
            ROOT + ".values",
            ROOT + ".content",
            ROOT + ".fetch",
            ROOT + ".politeness",
            ROOT + ".store",
            ROOT + ".parse",
            ROOT + ".revisit",
            ROOT + ".frontier",
            ROOT,
            ROOT + ".cluster");

    private static JavaClasses engine;

    @BeforeAll
    static void read() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyPackageUsesOnlyThePackagesBelowIt() {
        for (int i = 0; i < ORDER.size() - 1; i++) {
            noClasses().that().resideInAPackage(ORDER.get(i))
                    .should().dependOnClassesThat().resideInAnyPackage(ORDER.subList(i + 1, ORDER.size()).toArray(String[]::new))
                    .because(ORDER.get(i) + " sits below " + ORDER.subList(i + 1, ORDER.size()))
                    .check(engine);
        }
    }

    @Test
    void everyPackageIsInTheOrder() {
        classes().should().resideInAnyPackage(ORDER.toArray(String[]::new))
                .because("a new package takes its place in PackageOrderTest.ORDER")
                .check(engine);
    }

    @Test
    void noPackageCycle() {
        slices().matching("dev.loomcrawl.(**)").should().beFreeOfCycles().check(engine);
    }
}
