package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.jobs.conf.KgragConf;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The {@code spark.kgrag.llm.*} settings, read into an {@link LlmConfig} (no Spark session needed). */
class KgragConfLlmTest {
  private static KgragConf conf(String... kv) {
    return TestConf.of(kv);
  }

  @Test
  void defaultsAndEveryKey() {
    LlmConfig d = conf(KgragConf.LLM_URL, "http://localhost:8000/v1/", KgragConf.LLM_MODEL, "qwen").llm("--extractor llm");
    assertEquals("http://localhost:8000/v1", d.baseUrl());
    assertEquals("qwen", d.model());
    assertEquals(LlmConfig.DEFAULT_API_KEY_ENV, d.apiKeyEnv());
    assertEquals(0.0, d.temperature());
    assertEquals(OptionalInt.empty(), d.maxTokens());
    assertEquals(OptionalLong.empty(), d.seed());

    LlmConfig c =
        conf(KgragConf.LLM_URL, "https://api.example.com/v1", KgragConf.LLM_MODEL, "m", KgragConf.LLM_API_KEY_ENV, "MY_KEY",
                KgragConf.LLM_TIMEOUT, "7", KgragConf.LLM_MAX_RETRIES, "0", KgragConf.LLM_TEMPERATURE, "0.3",
                KgragConf.LLM_MAX_TOKENS, "256", KgragConf.LLM_SEED, "12345678901")
            .llm("--generator llm");
    assertEquals("MY_KEY", c.apiKeyEnv());
    assertEquals(Duration.ofSeconds(7), c.timeout());
    assertEquals(0, c.maxRetries());
    assertEquals(0.3, c.temperature());
    assertEquals(OptionalInt.of(256), c.maxTokens());
    assertEquals(OptionalLong.of(12345678901L), c.seed());
  }

  @Test
  void missingOrBadSettingsAreUserErrorsThatNeverEchoAKey() {
    UserInputException missing = assertThrows(UserInputException.class, () -> conf(KgragConf.LLM_MODEL, "m").llm("--extractor llm"));
    assertTrue(missing.getMessage().startsWith("--extractor llm needs " + KgragConf.LLM_URL + " and " + KgragConf.LLM_MODEL), missing.getMessage());
    assertTrue(missing.getMessage().contains("--conf-file"), missing.getMessage());

    String key = "sk-live-0123456789abcdef";
    UserInputException pasted =
        assertThrows(UserInputException.class,
            () -> conf(KgragConf.LLM_URL, "http://h/v1", KgragConf.LLM_MODEL, "m", KgragConf.LLM_API_KEY_ENV, key).llm("--generator llm"));
    assertFalse(pasted.getMessage().contains(key), pasted.getMessage());
    assertTrue(pasted.getMessage().contains("NAME of an environment variable"), pasted.getMessage());

    UserInputException creds =
        assertThrows(UserInputException.class, () -> conf(KgragConf.LLM_URL, "http://user:" + key + "@h/v1", KgragConf.LLM_MODEL, "m").llm("x"));
    assertFalse(creds.getMessage().contains(key), creds.getMessage());

    assertThrows(UserInputException.class, () -> conf(KgragConf.LLM_URL, "http://h/v1", KgragConf.LLM_MODEL, "m", KgragConf.LLM_TEMPERATURE, "hot").llm("x"));
    assertThrows(UserInputException.class, () -> conf(KgragConf.LLM_URL, "http://h/v1", KgragConf.LLM_MODEL, "m", KgragConf.LLM_TIMEOUT, "0").llm("x"));
  }
}
