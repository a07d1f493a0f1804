// Every tile at the sizes the client uses (phone river 20 px .. desktop hand 44 px) and one large.
const names = [];
for (const s of "mps") { for (let n = 1; n <= 9; n++) names.push(`${n}${s}`); names.push(`0${s}`); }
for (let n = 1; n <= 7; n++) names.push(`${n}z`);
names.push("back");
const root = document.getElementById("sets");
for (const size of [72, 44, 28, 20]) {
  const h = document.createElement("h2");
  h.textContent = `${size} px`;
  root.append(h);
  const row = document.createElement("div");
  row.className = `row s${size}`;
  for (const n of names) {
    const img = document.createElement("img");
    img.src = `${n}.svg`;
    img.alt = n;
    img.title = n;
    row.append(img);
  }
  root.append(row);
}
