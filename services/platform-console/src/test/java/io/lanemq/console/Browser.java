package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium, headless, through its chromium-driver (both installed by bin/setup-tools). Without them a test
 * is skipped on a developer's machine and fails under CI=true, where a skip would hide that nothing was tested.
 */
final class Browser {
    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File DRIVER = new File("/usr/bin/chromedriver");

    private Browser() {
    }

    static ChromeDriver start() {
        boolean present = CHROMIUM.canExecute() && DRIVER.canExecute();
        if ("true".equals(System.getenv("CI"))) {
            assertThat(present).as("chromium and chromium-driver (bin/setup-tools installs them): a CI run never skips this").isTrue();
        }
        Assumptions.assumeTrue(present, "chromium and chromium-driver are not installed (bin/setup-tools)");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
                // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
        // A click on a form's button may return before the browser leaves the page (CI, load 15: the undo's preview
        // was looked for on the operations page still shown, "no such element: #change"); each look-up polls for its
        // element until it is there, within 15 s, instead of failing at the first miss.
        driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(15));
        return driver;
    }

    /**
     * Saves what the browser shows under target/screenshots, or under the module's docs/ (where the README shows
     * them) when run with {@code -Dlanemq.console.screenshots=docs}: a test run must not change tracked files.
     */
    static void screenshot(ChromeDriver driver, String name) throws Exception {
        Path docs = Path.of(System.getProperty("lanemq.console.screenshots", "target/screenshots"));
        Files.createDirectories(docs);
        Files.write(docs.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    }
}
