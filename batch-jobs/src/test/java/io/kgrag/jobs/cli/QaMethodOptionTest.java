package io.kgrag.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.internal.qa.Methods;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --method all} and one method, checked before any session starts. */
class QaMethodOptionTest {
  private static QaCommand parsed(String... args) {
    QaCommand c = new QaCommand();
    String[] base = {"--questions", "q.csv", "--dataset", "d"};
    String[] all = java.util.Arrays.copyOf(base, base.length + args.length);
    System.arraycopy(args, 0, all, base.length, args.length);
    new CommandLine(c).parseArgs(all);
    return c;
  }

  @Test
  void allIsEveryMethodFoundAndAutoIsOneOfThem() {
    List<RetrievalMethod> ms = parsed("--method", "all").checkMethods();
    assertEquals(List.copyOf(Methods.all().keySet()), ms.stream().map(RetrievalMethod::name).toList());
    assertTrue(ms.stream().anyMatch(m -> m.name().equals("auto")));
    assertEquals(List.of("auto"), parsed("--method", "auto").checkMethods().stream().map(RetrievalMethod::name).toList());
  }

  @Test
  void underAllAFlagNeedsOnlyOneMethodThatReadsIt() {
    // --path-length is read by sgrag alone, --exemplars by several: both fine under all
    assertEquals(Methods.all().size(), parsed("--method", "all", "--path-length", "2", "--exemplars", "x.jsonl").checkMethods().size());
    // auto does not read --path-length: an error naming the flag
    UserInputException e = assertThrows(UserInputException.class, () -> parsed("--method", "auto", "--path-length", "2").checkMethods());
    assertTrue(e.getMessage().contains("--path-length") && e.getMessage().contains(QaFlag.EXEMPLARS.option()), e.getMessage());
    assertThrows(UserInputException.class, () -> parsed("--method", "all", "--generator", "poetry").checkMethods());
  }
}
