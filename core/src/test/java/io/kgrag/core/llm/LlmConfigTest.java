package io.kgrag.core.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LlmConfigTest {

  @Test
  void defaults() {
    LlmConfig c = LlmConfig.builder("http://localhost:8000/v1/", "m").build();
    assertEquals("http://localhost:8000/v1", c.baseUrl(), "trailing slash dropped");
    assertEquals("m", c.model());
    assertEquals("KGRAG_LLM_API_KEY", c.apiKeyEnv());
    assertEquals(Duration.ofSeconds(60), c.timeout());
    assertEquals(4, c.maxRetries());
    assertEquals(Duration.ofMillis(500), c.initialBackoff());
    assertEquals(Duration.ofSeconds(30), c.maxBackoff());
    assertEquals(Duration.ofSeconds(60), c.maxRetryAfter());
    assertEquals(0.0, c.temperature());
    assertTrue(c.maxTokens().isEmpty());
    assertTrue(c.seed().isEmpty());
  }

  @Test
  void toBuilderAndSerialisationRoundTrip() throws Exception {
    LlmConfig c =
        LlmConfig.builder("https://api.example.com/v1", "gpt-x")
            .apiKeyEnv("OTHER_KEY")
            .timeout(Duration.ofSeconds(5))
            .maxRetries(1)
            .initialBackoff(Duration.ofMillis(10))
            .maxBackoff(Duration.ofMillis(20))
            .maxRetryAfter(Duration.ofSeconds(3))
            .temperature(0.7)
            .maxTokens(256)
            .seed(7L)
            .build();
    assertEquals(c, c.toBuilder().build());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(c);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(c, in.readObject());
    }
    assertTrue(c.toString().contains("apiKeyEnv=OTHER_KEY"), c.toString());
    assertTrue(c.toString().contains("seed=7"), c.toString());
  }

  @Test
  void invalidValuesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> LlmConfig.builder("http://h/v1", " "));
    assertThrows(IllegalArgumentException.class, () -> LlmConfig.builder("localhost:8000", "m"));
    assertThrows(IllegalArgumentException.class, () -> LlmConfig.builder("ftp://h/v1", "m"));
    assertThrows(IllegalArgumentException.class, () -> LlmConfig.builder("http://h/v1?x=1", "m"));
    LlmConfig.Builder b = LlmConfig.builder("http://h/v1", "m");
    assertThrows(IllegalArgumentException.class, () -> b.timeout(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> b.maxRetries(-1));
    assertThrows(IllegalArgumentException.class, () -> b.temperature(-0.1));
    assertThrows(IllegalArgumentException.class, () -> b.temperature(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> b.maxTokens(-1));
    assertThrows(IllegalArgumentException.class, () -> b.initialBackoff(Duration.ofMillis(-1)));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.initialBackoff(Duration.ofSeconds(10)).maxBackoff(Duration.ofSeconds(1)).build());
  }

  @Test
  void credentialsInTheUrlOrAKeyInPlaceOfTheVariableNameAreRefusedWithoutEchoingThem() {
    String secret = "sk-live-DO-NOT-PRINT-123";
    IllegalArgumentException e1 =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmConfig.builder("http://user:" + secret + "@h/v1", "m"));
    assertFalse(e1.getMessage().contains(secret), e1.getMessage());
    IllegalArgumentException e2 =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmConfig.builder("http://h/v1", "m").apiKeyEnv(secret));
    assertFalse(e2.getMessage().contains(secret), e2.getMessage());
    assertTrue(e2.getMessage().contains("NAME"), e2.getMessage());
  }
}
