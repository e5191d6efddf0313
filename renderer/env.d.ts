// Side-effect CSS imports are handled by Vite; TypeScript only needs to know they exist.
declare module '*.css';
