// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { PasswordField } from "./password-input.tsx";

describe("PasswordField", () => {
  afterEach(cleanup);

  it("hides the password until the toggle is pressed, and hides it again on a second press", () => {
    render(<PasswordField label="Password" autoComplete="current-password" defaultValue="s3cret!" />);
    const input = screen.getByLabelText<HTMLInputElement>("Password");
    const toggle = screen.getByRole("button", { name: "Show password" });
    expect(input.type).toBe("password");
    expect(toggle.getAttribute("aria-pressed")).toBe("false");

    fireEvent.click(toggle);
    expect(input.type).toBe("text");
    expect(input.value).toBe("s3cret!");
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(toggle.title).toBe("Hide password");

    fireEvent.click(toggle);
    expect(input.type).toBe("password");
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
  });

  it("is a button in the Tab order, after the input it controls, and never submits the form", () => {
    render(
      <form>
        <PasswordField label="Password" />
      </form>,
    );
    const input = screen.getByLabelText("Password");
    const toggle = screen.getByRole<HTMLButtonElement>("button", { name: "Show password" });
    expect(toggle.type).toBe("button");
    expect(toggle.tabIndex).toBe(0);
    expect(toggle.getAttribute("aria-controls")).toBe(input.id);
    expect(input.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("passes the hint, the ref and the other props to the input", () => {
    const ref = createRef<HTMLInputElement>();
    render(<PasswordField label="New Password" hint="At least 8 characters." name="newPassword" ref={ref} />);
    const input = screen.getByLabelText("New Password");
    expect(ref.current).toBe(input);
    expect(input.getAttribute("name")).toBe("newPassword");
    expect(screen.getByText("At least 8 characters.").id).toBe(input.getAttribute("aria-describedby"));
  });
});
